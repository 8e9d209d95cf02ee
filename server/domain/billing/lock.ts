/**
 * Billing writes of one patient run one at a time. Every invoice, payment, allocation and refund
 * belongs to one patient, so locking the patient row (PostgreSQL: SELECT ... FOR UPDATE, first thing in
 * the transaction) serialises exactly the writes that could race for the same balance, with a single
 * lock and so no lock-order cycles. SQLite write transactions already run one at a time.
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { isPg } from '../../../db/dialect';
import { invoices, patients, payments } from '../../../db/schema';
import { notFound } from '../../errors';
import { billingRule } from './totals';

export async function lockPatientBilling(tx: Db, accountId: number, patientId: number): Promise<void> {
  if (!isPg) return;
  await tx
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.account_id, accountId), eq(patients.id, patientId)))
    .for('update');
}

/**
 * A billing record read for a change: found (its patient is needed to lock), locked, then read again
 * so the amounts checked are those no concurrent write can still change. Undefined when missing.
 */
export async function lockedRow<T extends { patient_id: number }>(
  tx: Db,
  accountId: number,
  read: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const first = await read();
  if (!first) return undefined;
  await lockPatientBilling(tx, accountId, first.patient_id);
  return isPg ? read() : first;
}

/**
 * Why an invoice or payment cannot be found live: voided already (409 billing_rule, the spec's "already
 * voided") or never there on this account (`missing`, a 404 unless the caller says otherwise).
 */
export async function voidedOrMissing(
  tx: Db,
  accountId: number,
  entity: 'invoices' | 'payments',
  id: number,
  missing: () => Error = () => notFound(entity === 'invoices' ? 'Invoice' : 'Payment'),
): Promise<Error> {
  const table = entity === 'invoices' ? invoices : payments;
  const [voided] = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.account_id, accountId), eq(table.id, id), isNotNull(table.voided_at)));
  return voided ? billingRule(`${entity === 'invoices' ? 'Invoice' : 'Payment'} ${id} is already voided`) : missing();
}
