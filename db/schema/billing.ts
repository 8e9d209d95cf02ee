import { bigint, day, index, partialIndex, int, table, tenantColumns, text, timestamp, uniqueIndex } from '../dialect';

/**
 * Billing. Money is integer minor units everywhere (`*_minor`); the API sends decimal strings. An
 * invoice's totals and balances are stored beside it, recomputed from its lines and allocations in the
 * same transaction as every change to them (server/domain/billing/totals.ts), so lists can filter and
 * sort on them through indexes. Voided invoices and payments are kept (numbers are never reused) but
 * no longer returned.
 */
/** States an invoice is read with; `void` is kept in the database only (voided invoices are not returned). */
export const INVOICE_READ_STATES = ['open', 'partially_paid', 'paid'] as const;
export const INVOICE_STATES = [...INVOICE_READ_STATES, 'void'] as const;
export const INVOICE_TYPES = ['patient', 'split', 'third_party'] as const;

export const invoices = table(
  'invoices',
  {
    ...tenantColumns(),
    number: int().notNull(),
    patient_id: int().notNull(),
    practitioner_id: int(),
    location_id: int(),
    appointment_id: int(),
    invoice_date: day().notNull(),
    note: text(),
    third_party_payer: text(),
    third_party_minor: bigint().notNull(),
    subtotal_minor: bigint().notNull(),
    discount_minor: bigint().notNull(),
    tax_minor: bigint().notNull(),
    total_minor: bigint().notNull(),
    paid_minor: bigint().notNull(),
    patient_paid_minor: bigint().notNull(),
    third_party_paid_minor: bigint().notNull(),
    balance_minor: bigint().notNull(),
    patient_balance_minor: bigint().notNull(),
    third_party_balance_minor: bigint().notNull(),
    state: text<(typeof INVOICE_STATES)[number]>().notNull(),
    type: text<(typeof INVOICE_TYPES)[number]>().notNull(),
    created_by: text(),
    voided_at: timestamp(),
  },
  (t) => {
    const on = partialIndex('voided_at IS NULL');
    return [
      uniqueIndex('invoices_number_uq').on(t.account_id, t.number),
      on('invoices_account_id_idx', t.account_id, t.id),
      on('invoices_patient_idx', t.account_id, t.patient_id, t.id),
      on('invoices_number_idx', t.account_id, t.number, t.id),
      on('invoices_date_idx', t.account_id, t.invoice_date, t.id),
      on('invoices_balance_idx', t.account_id, t.balance_minor, t.id),
      on('invoices_patient_balance_idx', t.account_id, t.patient_balance_minor, t.id),
      on('invoices_third_party_balance_idx', t.account_id, t.third_party_balance_minor, t.id),
      on('invoices_total_idx', t.account_id, t.total_minor, t.id),
      on('invoices_subtotal_idx', t.account_id, t.subtotal_minor, t.id),
      on('invoices_paid_idx', t.account_id, t.paid_minor, t.id),
      on('invoices_type_idx', t.account_id, t.type, t.id),
      on('invoices_note_idx', t.account_id, t.note, t.id),
      on('invoices_practitioner_idx', t.account_id, t.practitioner_id, t.id),
      on('invoices_location_idx', t.account_id, t.location_id, t.id),
      on('invoices_appointment_idx', t.account_id, t.appointment_id, t.id),
      on('invoices_state_idx', t.account_id, t.state, t.id),
      on('invoices_created_at_idx', t.account_id, t.created_at, t.id),
      on('invoices_updated_at_idx', t.account_id, t.updated_at, t.id),
    ];
  },
);

export const lineItems = table(
  'line_items',
  {
    ...tenantColumns(),
    invoice_id: int().notNull(),
    billable_item_id: int().notNull(),
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
    index('line_items_account_idx').on(t.account_id, t.id),
  ],
);

export const PAYMENT_READ_STATUSES = ['unallocated', 'partially_allocated', 'allocated', 'refunded'] as const;
export const PAYMENT_STATUSES = [...PAYMENT_READ_STATUSES, 'void'] as const;

export const payments = table(
  'payments',
  {
    ...tenantColumns(),
    patient_id: int().notNull(),
    payment_method_id: int().notNull(),
    amount_minor: bigint().notNull(),
    allocated_minor: bigint().notNull(),
    refunded_minor: bigint().notNull(),
    unallocated_minor: bigint().notNull(),
    payment_date: day().notNull(),
    note: text(),
    status: text<(typeof PAYMENT_STATUSES)[number]>().notNull(),
    created_by: text(),
    voided_at: timestamp(),
  },
  (t) => {
    const on = partialIndex('voided_at IS NULL');
    return [
      on('payments_account_id_idx', t.account_id, t.id),
      on('payments_patient_idx', t.account_id, t.patient_id, t.id),
      on('payments_date_idx', t.account_id, t.payment_date, t.id),
      on('payments_status_idx', t.account_id, t.status, t.id),
      on('payments_method_idx', t.account_id, t.payment_method_id, t.id),
      on('payments_amount_idx', t.account_id, t.amount_minor, t.id),
      on('payments_unallocated_idx', t.account_id, t.unallocated_minor, t.id),
      on('payments_created_at_idx', t.account_id, t.created_at, t.id),
      on('payments_updated_at_idx', t.account_id, t.updated_at, t.id),
    ];
  },
);

export const ALLOCATION_PAYERS = ['patient', 'third_party'] as const;

export const paymentAllocations = table(
  'payment_allocations',
  {
    ...tenantColumns(),
    payment_id: int().notNull(),
    invoice_id: int().notNull(),
    amount_minor: bigint().notNull(),
    payer: text<(typeof ALLOCATION_PAYERS)[number]>().notNull(),
  },
  (t) => [
    index('payment_allocations_account_idx').on(t.account_id, t.id),
    index('payment_allocations_payment_idx').on(t.account_id, t.payment_id),
    index('payment_allocations_invoice_idx').on(t.account_id, t.invoice_id),
    index('payment_allocations_payer_idx').on(t.account_id, t.payer, t.id),
  ],
);

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
