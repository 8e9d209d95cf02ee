import { accountIdIndex, bool, int, table, tenantColumns, text, sortIndexes } from '../dialect';

export const PAYMENT_METHOD_TYPES = ['cash', 'card', 'bank_transfer', 'cheque', 'insurance', 'other'] as const;

export const paymentMethods = table(
  'payment_methods',
  {
    ...tenantColumns(),
    name: text().notNull(),
    type: text<(typeof PAYMENT_METHOD_TYPES)[number]>().notNull(),
    active: bool().notNull(),
    sort_order: int().notNull(),
  },
  (t) => [
    ...accountIdIndex('payment_methods_account_idx', t),
    ...sortIndexes('payment_methods', t, [t.active, t.sort_order, t.created_at, t.updated_at]),
  ],
);
