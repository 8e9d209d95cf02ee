/**
 * Billing writes of one patient run one at a time. Every invoice, payment, allocation and refund
 * belongs to one patient, so locking the patient row (PostgreSQL: SELECT ... FOR UPDATE, first thing in
 * the transaction) serialises exactly the writes that could race for the same balance, with a single
 * lock and so no lock-order cycles. SQLite write transactions already run one at a time.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { isPg } from '../../../db/dialect';
import { patients } from '../../../db/schema';

export async function lockPatientBilling(tx: Db, accountId: number, patientId: number): Promise<void> {
  if (!isPg) return;
  await tx
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.account_id, accountId), eq(patients.id, patientId)))
    .for('update');
}
