/**
 * A soft-deleted patient is "no longer returned", and neither is what is theirs alone: their numbers,
 * address, timeline, files, clinical notes and tag placements are hidden with them (reads, lists,
 * downloads, changes: 404). One condition, used as those resources' scope.
 */
import { sql, type SQL } from 'drizzle-orm';
import { isPg } from '../../db/dialect';

export const LIVE_PATIENT_RULE = 'Hidden once its patient is deleted (patients are soft-deleted): reads, lists and changes answer as if it did not exist.';

/**
 * A check per row read, by the patient's key `(account_id, id)` (PostgreSQL's primary key): `OFFSET 0`
 * keeps PostgreSQL from turning the EXISTS into a join it may drive from the clinic's patients in id order,
 * which reads every patient before a cursor's bound to reach a deep page (server/test/list-order.index.test.ts
 * caught it). SQLite checks per row already (and allows OFFSET only after LIMIT).
 */
const PER_ROW = isPg ? ' OFFSET 0' : '';

/** Rows of `table` whose `column` names a patient that is not deleted. */
export function ofLivePatient(table: string, column = 'patient_id'): SQL {
  return sql.raw(`EXISTS (SELECT 1 FROM patients lp WHERE lp.account_id = "${table}".account_id AND lp.id = "${table}"."${column}" AND lp.deleted_at IS NULL${PER_ROW})`);
}

/** Tags of timeline entries: hidden with the entry's patient. */
export const ofLogOfLivePatient = (): SQL =>
  sql.raw(
    `EXISTS (SELECT 1 FROM patient_logs pl JOIN patients lp ON lp.account_id = pl.account_id AND lp.id = pl.patient_id WHERE pl.account_id = "patient_log_tags".account_id AND pl.id = "patient_log_tags"."patient_log_id" AND lp.deleted_at IS NULL${PER_ROW})`,
  );
