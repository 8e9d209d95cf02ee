'use client';
/** What the clinic charges for: services and products, their price in the clinic's currency and tax. */
import { useQuery } from '@tanstack/react-query';
import { Badge } from '../../../_components/ui';
import { portal } from '../../../_lib/trpc';
import { SetupManager, toInput, type FieldSpec } from '../_components/setup-manager';

type BillableItem = Awaited<ReturnType<typeof portal.practice.billableItems.list.query>>['data'][number];

/** Every type the declaration allows, in words (a new type fails to compile here until it has its words). */
const TYPES: Record<BillableItem['item_type'], string> = { service: 'Service', product: 'Product', other: 'Other' };

/** "£45.00": the clinic's currency as people read it (the API's decimal string, shown, never computed with). */
const money = (amount: string, currency: string) => {
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(Number(amount));
  } catch {
    return `${amount} ${currency}`;
  }
};

const fieldsIn = (currency: string): FieldSpec[] => [
  {
    name: 'name',
    label: 'Name',
    kind: 'text',
    required: true,
    hint: 'As it shows on invoices, e.g. Sports massage (30 min)',
  },
  {
    name: 'item_type',
    label: 'Type',
    kind: 'select',
    required: true,
    values: Object.entries(TYPES).map(([value, label]) => ({ value, label })),
  },
  {
    name: 'price',
    label: `Price (${currency})`,
    kind: 'decimal',
    required: true,
    hint: 'e.g. 45.00 (a currency sign typed with it is left out)',
  },
  { name: 'tax_rate', label: 'Tax rate (%)', kind: 'decimal', hint: 'e.g. 20 or 20%; leave empty for no tax' },
  { name: 'item_code', label: 'Item code', kind: 'text', hint: 'Your own code, for accounts or insurers' },
  {
    name: 'active',
    label: 'Active (offered on new invoices)',
    kind: 'checkbox',
    checked: true,
    hint: 'Untick to retire it: past invoices keep it',
  },
];

const list = () => portal.practice.billableItems.list.query();

export function BillableItemsManager({ canManage }: { canManage: boolean }) {
  // The same query as the list below (shared by key): the clinic's currency labels the price.
  const currency = useQuery({ queryKey: ['practice', 'billable-items'], queryFn: list }).data?.currency ?? '';
  const fields = fieldsIn(currency);
  return (
    <SetupManager<BillableItem>
      noun="billable item"
      title="Billable items"
      queryKey="billable-items"
      list={list}
      fields={fields}
      nameOf={(i) => i.name}
      columns={[
        { label: 'Name', render: (i) => <strong>{i.name}</strong> },
        { label: 'Type', render: (i) => TYPES[i.item_type] },
        { label: 'Price', render: (i) => money(i.price, currency) },
        { label: 'Tax', render: (i) => (Number(i.tax_rate) === 0 ? 'No tax' : `${Number(i.tax_rate)}%`) },
        { label: 'Code', render: (i) => i.item_code ?? '—' },
        {
          label: 'Status',
          render: (i) => (i.active ? <Badge tone="green">Active</Badge> : <Badge tone="slate">Inactive</Badge>),
        },
      ]}
      create={(v) =>
        portal.practice.billableItems.create.mutate(
          toInput(fields, v) as Parameters<typeof portal.practice.billableItems.create.mutate>[0],
        )
      }
      update={(id, v) => portal.practice.billableItems.update.mutate({ id, ...toInput(fields, v) })}
      remove={(id) => portal.practice.billableItems.delete.mutate({ id })}
      deleteNote="The item is removed for good. An item on invoices or in care plans is kept for their record: make it inactive instead, so it is no longer offered."
      canManage={canManage}
      empty="No billable items yet. Add what the clinic charges for above, such as a consultation."
    />
  );
}
