'use client';
/** Ways the clinic takes payment, in the order they are offered; an inactive one can no longer be chosen. */
import { Badge } from '../../../_components/ui';
import { portal } from '../../../_lib/trpc';
import { SetupManager, toInput, type FieldSpec } from '../_components/setup-manager';

type PaymentMethod = Awaited<ReturnType<typeof portal.practice.paymentMethods.list.query>>['data'][number];

/** Every type the declaration allows, in words (a new type fails to compile here until it has its words). */
const TYPES: Record<PaymentMethod['type'], string> = {
  cash: 'Cash',
  card: 'Card',
  bank_transfer: 'Bank transfer',
  cheque: 'Cheque',
  insurance: 'Insurance',
  other: 'Other',
};

const FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true, hint: 'As it shows on receipts, e.g. Cash' },
  {
    name: 'type',
    label: 'Type',
    kind: 'select',
    required: true,
    values: Object.entries(TYPES).map(([value, label]) => ({ value, label })),
    hint: 'Card payments are taken in the clinic, never recorded through the API',
  },
  {
    name: 'sort_order',
    label: 'Position in the list',
    kind: 'number',
    hint: 'Lower comes first; leave empty to put it last',
  },
  {
    name: 'active',
    label: 'Active (can be chosen for new payments)',
    kind: 'checkbox',
    checked: true,
    hint: 'Untick to retire it: past payments keep it',
  },
];

/** An empty position is left out: a new method goes last, an edited one keeps its place. */
const input = (v: Parameters<typeof toInput>[1]) => {
  const { sort_order, ...rest } = toInput(FIELDS, v);
  return sort_order === null ? rest : { ...rest, sort_order };
};

export function PaymentMethodsManager({ canManage }: { canManage: boolean }) {
  return (
    <SetupManager<PaymentMethod>
      noun="payment method"
      title="Payment methods"
      queryKey="payment-methods"
      list={() => portal.practice.paymentMethods.list.query()}
      fields={FIELDS}
      nameOf={(m) => m.name}
      columns={[
        { label: 'Name', render: (m) => <strong>{m.name}</strong> },
        { label: 'Type', render: (m) => TYPES[m.type] },
        { label: 'Position', render: (m) => m.sort_order },
        {
          label: 'Status',
          render: (m) => (m.active ? <Badge tone="green">Active</Badge> : <Badge tone="slate">Inactive</Badge>),
        },
      ]}
      create={(v) =>
        portal.practice.paymentMethods.create.mutate(
          input(v) as Parameters<typeof portal.practice.paymentMethods.create.mutate>[0],
        )
      }
      update={(id, v) => portal.practice.paymentMethods.update.mutate({ id, ...input(v) })}
      remove={(id) => portal.practice.paymentMethods.delete.mutate({ id })}
      deleteNote="The payment method is removed for good. One that payments were taken with is kept for their record: make it inactive instead, so it can no longer be chosen."
      canManage={canManage}
      empty="No payment methods yet. Add one above, such as Cash."
    />
  );
}
