/**
 * A soft-deleted patient is "no longer returned", and neither is what is theirs alone: their numbers,
 * address, timeline, files, clinical notes and tag placements are hidden with them (reads, lists,
 * downloads, changes: 404). One condition, used as those resources' scope.
 */
import { sql, type SQL } from 'drizzle-orm';

export const LIVE_PATIENT_RULE = 'Hidden once its patient is deleted (patients are soft-deleted): reads, lists and changes answer as if it did not exist.';

/** Rows of `table` whose `column` names a patient that is not deleted. */
export function ofLivePatient(table: string, column = 'patient_id'): SQL {
  return sql.raw(`EXISTS (SELECT 1 FROM patients lp WHERE lp.id = "${table}"."${column}" AND lp.deleted_at IS NULL)`);
}

/** Tags of timeline entries: hidden with the entry's patient. */
export const ofLogOfLivePatient = (): SQL =>
  sql.raw(`EXISTS (SELECT 1 FROM patient_logs pl JOIN patients lp ON lp.id = pl.patient_id WHERE pl.id = "patient_log_tags"."patient_log_id" AND lp.deleted_at IS NULL)`);
