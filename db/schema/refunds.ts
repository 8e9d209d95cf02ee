import { bigint, index, int, table, tenantColumns, text, sortIndexes } from '../dialect';

export const refunds = table(
  'refunds',
  {
    ...tenantColumns(),
    payment_id: int().notNull(),
    amount_minor: bigint().notNull(),
    reason: text(),
    created_by: text(),
  },
  (t) => [index('refunds_account_idx').on(t.account_id, t.id), ...sortIndexes('refunds', t, [t.payment_id, t.created_at, t.updated_at])],
);
