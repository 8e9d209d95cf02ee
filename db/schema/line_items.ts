import {
  accountIdIndex,
  bigint,
  index,
  int,
  table,
  tenantColumns,
  text,
  sortIndexes,
  ref,
  tenantForeignKey,
} from '../dialect';
import { invoices } from './invoices';

export const lineItems = table(
  'line_items',
  {
    ...tenantColumns(),
    invoice_id: ref().notNull(),
    billable_item_id: ref().notNull(),
    description: text().notNull(),
    quantity: int().notNull(),
    unit_price_minor: bigint().notNull(),
    discount_minor: bigint().notNull(),
    tax_rate_bp: int().notNull(),
    subtotal_minor: bigint().notNull(),
    tax_minor: bigint().notNull(),
    total_minor: bigint().notNull(),
  },
  (t) => [
    index('line_items_invoice_idx').on(t.account_id, t.invoice_id, t.id),
    index('line_items_billable_item_idx').on(t.account_id, t.billable_item_id, t.id),
    ...accountIdIndex('line_items_account_idx', t),
    ...sortIndexes('line_items', t, [t.created_at, t.updated_at]),
    ...tenantForeignKey('line_items_invoice_fk', t, t.invoice_id, () => invoices),
  ],
);
