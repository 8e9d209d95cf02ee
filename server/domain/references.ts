/**
 * Checks that a referenced record exists on the account, with the spec's 422 codes. Calendar records
 * (locations, practitioners, appointment types) are checked by ./scheduling/calendar.ts.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { patients } from '../../db/schema';
import { invalid } from '../errors';

/** A reference to a patient must name a live (not deleted) patient of the account: else 422 patient_not_found. */
export async function assertLivePatient(
  tx: Db,
  accountId: number,
  id: number,
  attribute = 'patient_id',
): Promise<void> {
  const [p] = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.account_id, accountId), eq(patients.id, id), isNull(patients.deleted_at)));
  if (!p) throw invalid(attribute, 'is not a patient of this account', 'patient_not_found');
}
