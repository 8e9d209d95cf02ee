import {
  bigint,
  day,
  partialIndex,
  int,
  table,
  tenantColumns,
  text,
  timestamp,
  uniqueIndex,
  ref,
  tenantForeignKey,
} from '../dialect';
import { patients } from './patients';

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
    patient_id: ref().notNull(),
    practitioner_id: ref(),
    location_id: ref(),
    appointment_id: ref(),
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
      // A patient's invoices over a period, in date order (server/resources/invoices.ts `everyday`).
      on('invoices_patient_date_idx', t.account_id, t.patient_id, t.invoice_date, t.id),
      on('invoices_number_idx', t.account_id, t.number, t.id),
      on('invoices_date_idx', t.account_id, t.invoice_date, t.id),
      // One per sortable attribute and per filter kept indexed (references, state, date, balance, total).
      // subtotal, amount_paid, patient_balance, third_party_balance, type and note filters scan the clinic's
      // rows instead (server/list/scans.ts): six indexes of twenty were most of the 1.44 GB on a 0.45 GB table.
      on('invoices_balance_idx', t.account_id, t.balance_minor, t.id),
      on('invoices_total_idx', t.account_id, t.total_minor, t.id),
      on('invoices_practitioner_idx', t.account_id, t.practitioner_id, t.id),
      on('invoices_location_idx', t.account_id, t.location_id, t.id),
      on('invoices_appointment_idx', t.account_id, t.appointment_id, t.id),
      on('invoices_state_idx', t.account_id, t.state, t.id),
      on('invoices_created_at_idx', t.account_id, t.created_at, t.id),
      on('invoices_updated_at_idx', t.account_id, t.updated_at, t.id),
      ...tenantForeignKey('invoices_patient_fk', t, t.patient_id, () => patients),
      // The few voided ones: what their lines are hidden by (server/resources/follows.ts).
      partialIndex('voided_at IS NOT NULL')('invoices_voided_idx', t.account_id, t.id),
    ];
  },
);
