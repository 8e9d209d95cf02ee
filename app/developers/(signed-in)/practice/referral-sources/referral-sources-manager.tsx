'use client';
/** Where patients come from (a GP practice, a campaign …); the API creates and changes the same records. */
import { Badge } from '../../../_components/ui';
import { portal } from '../../../_lib/trpc';
import { SetupManager, toInput, type FieldSpec } from '../_components/setup-manager';

type ReferralSource = Awaited<ReturnType<typeof portal.practice.referralSources.list.query>>['data'][number];

const FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true, hint: 'e.g. Harbour Street GP surgery' },
  { name: 'category', label: 'Category', kind: 'text', hint: 'e.g. GP, Advert, Word of mouth' },
  {
    name: 'active',
    label: 'Active (can be given as a referral)',
    kind: 'checkbox',
    checked: true,
    hint: 'Untick to retire it: patients referred by it keep it',
  },
];

/** A blank category is none (the API's rule keeps text as sent, so the form says so). */
const input = (v: Parameters<typeof toInput>[1]) => {
  const values = toInput(FIELDS, v);
  return {
    ...values,
    category: typeof values.category === 'string' && values.category.trim() ? values.category.trim() : null,
  };
};

export function ReferralSourcesManager({ canManage }: { canManage: boolean }) {
  return (
    <SetupManager<ReferralSource>
      noun="referral source"
      title="Referral sources"
      queryKey="referral-sources"
      list={() => portal.practice.referralSources.list.query()}
      fields={FIELDS}
      nameOf={(r) => r.name}
      columns={[
        { label: 'Name', render: (r) => <strong>{r.name}</strong> },
        { label: 'Category', render: (r) => r.category ?? '—' },
        {
          label: 'Status',
          render: (r) => (r.active ? <Badge tone="green">Active</Badge> : <Badge tone="slate">Inactive</Badge>),
        },
      ]}
      create={(v) =>
        portal.practice.referralSources.create.mutate(
          input(v) as Parameters<typeof portal.practice.referralSources.create.mutate>[0],
        )
      }
      update={(id, v) => portal.practice.referralSources.update.mutate({ id, ...input(v) })}
      remove={(id) => portal.practice.referralSources.delete.mutate({ id })}
      deleteNote="The referral source is removed for good. One that patients were referred by is kept: make it inactive instead, so it can no longer be given."
      canManage={canManage}
      empty="No referral sources yet. Add one above."
    />
  );
}
