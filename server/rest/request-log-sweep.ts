/**
 * The request log's retention (spec: 90 days), a job of the scheduler like the other sweeps (batches, a
 * lease, a bound per run: server/scheduler/sweep-batches.ts). Ids grow with time, so expired rows are the
 * oldest by id: each batch looks at the oldest ids only and deletes the expired among them, until a batch
 * deletes nothing. SQLite reads them off the rowid; PostgreSQL, whose key is (account_id, id), off
 * request_log_sweep_idx (id). No index on created_at alone is maintained by every insert, and none
 * that a planner could prefer to the account's own for a clinic's newest page; a row stamped in the
 * future by a wrong clock is simply passed over.
 */
import { and, asc, lt } from 'drizzle-orm';
import type { Db, DbHandle } from '../../db/client';
import { keyIn, keyOf } from '../../db/dialect';
import { requestLog } from '../../db/schema';
import type { JobRun } from '../scheduler/scheduler';
import { ofClinic, sweepCutoff, sweepEachClinic, type SweepOutcome } from '../scheduler/sweep-batches';

export const RETENTION_DAYS = 90;

/** What the sweep deletes: the condition its batches and its list of clinics share. */
const expiredRequests = (now: number) => lt(requestLog.created_at, sweepCutoff(requestLog, now, RETENTION_DAYS));

/** One batch: the expired among the `limit` oldest rows. */
export function expiredRequestsBatch(tx: Db, now: number, limit: number, clinic?: number) {
  const oldest = tx
    .select(keyOf(requestLog))
    .from(requestLog)
    .where(ofClinic(requestLog, clinic))
    .orderBy(asc(requestLog.id))
    .limit(limit);
  return tx
    .delete(requestLog)
    .where(and(ofClinic(requestLog, clinic), keyIn(requestLog, oldest), expiredRequests(now)))
    .returning({ id: requestLog.id });
}

export const sweepRequestLog = (db: DbHandle, now = Date.now(), run?: JobRun): Promise<SweepOutcome> =>
  sweepEachClinic(db, run, { table: requestLog, where: expiredRequests(now) }, async (tx, limit, clinic) => {
    const deleted = (await expiredRequestsBatch(tx, now, limit, clinic)).length;
    return { deleted, more: deleted > 0 };
  });
