import {
  accountIdIndex,
  bigint,
  index,
  table,
  tenantColumns,
  text,
  sortIndexes,
  ref,
  tenantForeignKey,
} from '../dialect';
import { invoices } from './invoices';
import { payments } from './payments';

export const ALLOCATION_PAYERS = ['patient', 'third_party'] as const;

export const paymentAllocations = table(
  'payment_allocations',
  {
    ...tenantColumns(),
    payment_id: ref().notNull(),
    invoice_id: ref().notNull(),
    amount_minor: bigint().notNull(),
    payer: text<(typeof ALLOCATION_PAYERS)[number]>().notNull(),
  },
  (t) => [
    ...accountIdIndex('payment_allocations_account_idx', t),
    ...sortIndexes('payment_allocations', t, [t.created_at, t.updated_at]),
    index('payment_allocations_payment_idx').on(t.account_id, t.payment_id),
    index('payment_allocations_invoice_idx').on(t.account_id, t.invoice_id),
    index('payment_allocations_payer_idx').on(t.account_id, t.payer, t.id),
    ...tenantForeignKey('payment_allocations_payment_fk', t, t.payment_id, () => payments),
    ...tenantForeignKey('payment_allocations_invoice_fk', t, t.invoice_id, () => invoices),
  ],
);
