/**
 * The clinic job "mark unarrived appointments missed": in every clinic whose practice setting asks for
 * it, a booked appointment (not arrived, not cancelled) that ended `mark_missed_after_hours` ago or more
 * becomes missed, through the same lifecycle action as POST /appointments/{id}/miss: one transaction per
 * appointment, its audit entry (actor system) and its `appointments.missed` event, as the API's own.
 *
 * - Idempotent: only booked appointments are read, and the action re-reads each under its lock, so an
 *   appointment arrived, cancelled or already missed meanwhile is left alone (nothing announced twice).
 * - Resumable: each appointment commits on its own; a run that dies leaves the ones done done, and the
 *   next run (the lease passes on after expiry) finds the rest.
 * - Bounded: at most `perClinic` appointments of a clinic per run, oldest end first (the
 *   appointments_unarrived_idx index, led by account_id); a clinic with more asks for another run at once.
 */
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { DbHandle } from '../../db/client';
import { accounts, appointments, practiceSettings } from '../../db/schema';
import { moveAppointment } from '../domain/appointments/lifecycle';
import type { WriteContext } from '../domain/write-context';
import { ApiError } from '../errors';
import type { Actor } from '../events/record';
import type { Job, JobRun } from '../scheduler/scheduler';

export const MARK_MISSED_JOB = 'appointments.mark_missed';
/** Who the audit trail names for the appointments this job marks. */
export const MISSED_ACTOR: Actor = { actor_type: 'system', actor_id: null, actor_name: 'missed appointments job' };
export const MISSED_PER_CLINIC = 100;
const EVERY_MS = 10 * 60_000;

export interface MissedRun {
  marked: number;
  /** Some clinic had more than the bound: the rest waits for the next run. */
  more: boolean;
}

/** The partial index's own condition, written as it is (a bound value would keep a generic plan from using the index). */
const UNARRIVED = sql`${appointments.status} = 'booked' AND ${appointments.deleted_at} IS NULL`;

/** The booked appointments of a clinic that ended at or before `endedBy`, oldest end first (served by appointments_unarrived_idx). */
export function unarrived(db: DbHandle, accountId: number, endedBy: string, limit: number) {
  return db.db
    .select({ id: appointments.id })
    .from(appointments)
    .where(and(eq(appointments.account_id, accountId), UNARRIVED, lte(appointments.ends_utc, endedBy)))
    .orderBy(asc(appointments.ends_utc), asc(appointments.id))
    .limit(limit);
}

export async function markMissed(
  db: DbHandle,
  run: Pick<JobRun, 'now' | 'renew'>,
  perClinic = MISSED_PER_CLINIC,
): Promise<MissedRun> {
  const clinics = await db.db
    .select({ account_id: practiceSettings.account_id, hours: practiceSettings.mark_missed_after_hours })
    .from(practiceSettings)
    .where(eq(practiceSettings.mark_missed, true))
    .orderBy(asc(practiceSettings.account_id));
  let marked = 0;
  let more = false;
  for (const clinic of clinics) {
    if (!(await run.renew())) return { marked, more: true };
    const [account] = await db.db
      .select()
      .from(accounts)
      .where(inArray(accounts.id, [clinic.account_id]));
    if (!account) continue;
    const endedBy = new Date(run.now() - clinic.hours * 3_600_000).toISOString();
    const due = await unarrived(db, account.id, endedBy, perClinic + 1);
    if (due.length > perClinic) more = true;
    const w: WriteContext = { db, account, actor: MISSED_ACTOR, now: run.now };
    const reason = `Not arrived ${clinic.hours} hour${clinic.hours === 1 ? '' : 's'} after it ended`;
    for (const { id } of due.slice(0, perClinic)) {
      try {
        await moveAppointment(w, id, 'miss', reason);
        marked++;
      } catch (err) {
        // Arrived, cancelled, missed or deleted since it was read: nothing to do.
        if (err instanceof ApiError && (err.code === 'appointment_rule' || err.code === 'not_found')) continue;
        throw err;
      }
    }
  }
  return { marked, more };
}

export const markMissedJob = (db: DbHandle, perClinic = MISSED_PER_CLINIC): Job => ({
  name: MARK_MISSED_JOB,
  everyMs: EVERY_MS,
  run: async (run) => ({ again: (await markMissed(db, run, perClinic)).more }),
});
