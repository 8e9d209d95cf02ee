import { accountIdIndex, bool, int, table, tenantColumns, text, sortIndexes } from '../dialect';

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
  (t) => [
    ...accountIdIndex('billable_items_account_idx', t),
    ...sortIndexes('billable_items', t, [t.name, t.item_code, t.created_at, t.updated_at]),
  ],
);
