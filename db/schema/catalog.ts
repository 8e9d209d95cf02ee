import { bool, index, int, table, tenantColumns, text } from '../dialect';

export const tags = table(
  'tags',
  {
    ...tenantColumns(),
    name: text().notNull(),
    color: text(),
    sort_order: int().notNull(),
  },
  (t) => [index('tags_account_idx').on(t.account_id, t.id)],
);

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

export const billableItems = table(
  'billable_items',
  {
    ...tenantColumns(),
    name: text().notNull(),
    item_code: text(),
    item_type: text<'service' | 'product' | 'other'>().notNull(),
    /** Unit price in the account currency's minor units. */
    price_minor: int().notNull(),
    tax_rate_bp: int().notNull(),
    active: bool().notNull(),
  },
  (t) => [index('billable_items_account_idx').on(t.account_id, t.id)],
);

export const referralSources = table(
  'referral_sources',
  {
    ...tenantColumns(),
    name: text().notNull(),
    category: text(),
    active: bool().notNull(),
  },
  (t) => [index('referral_sources_account_idx').on(t.account_id, t.id)],
);
