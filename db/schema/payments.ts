import { bigint, day, partialIndex, table, tenantColumns, text, timestamp, ref, tenantForeignKey } from '../dialect';
import { patients } from './patients';

export const PAYMENT_READ_STATUSES = ['unallocated', 'partially_allocated', 'allocated', 'refunded'] as const;
export const PAYMENT_STATUSES = [...PAYMENT_READ_STATUSES, 'void'] as const;

export const payments = table(
  'payments',
  {
    ...tenantColumns(),
    patient_id: ref().notNull(),
    payment_method_id: ref().notNull(),
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
      ...tenantForeignKey('payments_patient_fk', t, t.patient_id, () => patients),
    ];
  },
);
