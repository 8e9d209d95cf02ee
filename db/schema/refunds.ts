import { bigint, index, int, table, tenantColumns, text } from '../dialect';

export const refunds = table(
  'refunds',
  {
    ...tenantColumns(),
    payment_id: int().notNull(),
    amount_minor: bigint().notNull(),
    reason: text(),
    created_by: text(),
  },
  (t) => [index('refunds_account_idx').on(t.account_id, t.id), index('refunds_payment_idx').on(t.account_id, t.payment_id)],
);
