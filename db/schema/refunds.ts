import { accountIdIndex, bigint, table, tenantColumns, text, sortIndexes, ref, tenantForeignKey } from '../dialect';
import { payments } from './payments';

export const refunds = table(
  'refunds',
  {
    ...tenantColumns(),
    payment_id: ref().notNull(),
    amount_minor: bigint().notNull(),
    reason: text(),
    created_by: text(),
  },
  (t) => [
    ...accountIdIndex('refunds_account_idx', t),
    ...sortIndexes('refunds', t, [t.payment_id, t.created_at, t.updated_at]),
    ...tenantForeignKey('refunds_payment_fk', t, t.payment_id, () => payments),
  ],
);
