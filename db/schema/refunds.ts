import { bigint, index, table, tenantColumns, text, sortIndexes, ref } from '../dialect';

export const refunds = table(
  'refunds',
  {
    ...tenantColumns(),
    payment_id: ref().notNull(),
    amount_minor: bigint().notNull(),
    reason: text(),
    created_by: text(),
  },
  (t) => [index('refunds_account_idx').on(t.account_id, t.id), ...sortIndexes('refunds', t, [t.payment_id, t.created_at, t.updated_at])],
);
