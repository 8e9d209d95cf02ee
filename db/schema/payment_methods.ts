import { bool, index, int, table, tenantColumns, text } from '../dialect';

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
  (t) => [index('payment_methods_account_idx').on(t.account_id, t.id)],
);
