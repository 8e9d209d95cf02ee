import { bigint, index, table, tenantColumns, text, sortIndexes, ref } from '../dialect';

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
    index('payment_allocations_account_idx').on(t.account_id, t.id), ...sortIndexes('payment_allocations', t, [t.created_at, t.updated_at]),
    index('payment_allocations_payment_idx').on(t.account_id, t.payment_id),
    index('payment_allocations_invoice_idx').on(t.account_id, t.invoice_id),
    index('payment_allocations_payer_idx').on(t.account_id, t.payer, t.id),
  ],
);
