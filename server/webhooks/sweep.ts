/**
 * What webhook delivery keeps, and for how long:
 * - attempts 30 days after they were made (the portal's delivery log and charts read them);
 * - messages 30 days after their last attempt (updated_at), once settled (delivered or failed). A pending
 *   message, held by a disabled endpoint or waiting for a retry, is never swept: it is a delivery still
 *   owed. By then its attempts are gone too; an integrator wanting an older event again reads the events
 *   feed (30 days) or the record itself.
 * Each in batches (server/scheduler/sweep-batches.ts), by an index on the time column.
 */
import { and, asc, eq, lt } from 'drizzle-orm';
import { keyIn, keyOf } from '../../db/dialect';
import type { Db, DbHandle } from '../../db/client';
import { webhookAttempts, webhookMessages } from '../../db/schema';
import type { JobRun } from '../scheduler/scheduler';
import {
  cutoffOf,
  ofClinic,
  paceOf,
  sweepCutoff,
  sweepEachClinic,
  type SweepOutcome,
} from '../scheduler/sweep-batches';

export const ATTEMPTS_KEPT_DAYS = 30;
export const MESSAGES_KEPT_DAYS = 30;

/** What the sweep deletes: the condition its batches and its list of clinics share. */
const expiredAttempts = (now: number) =>
  lt(webhookAttempts.created_at, sweepCutoff(webhookAttempts, now, ATTEMPTS_KEPT_DAYS));

/** One batch of the attempts sweep, oldest first, by webhook_attempts_created_idx (created_at). */
export function expiredAttemptsBatch(tx: Db, now: number, limit: number, clinic?: number) {
  const t = webhookAttempts;
  const expired = tx
    .select(keyOf(t))
    .from(t)
    .where(and(ofClinic(t, clinic), expiredAttempts(now)))
    .orderBy(asc(t.created_at))
    .limit(limit);
  return tx
    .delete(t)
    .where(and(ofClinic(t, clinic), keyIn(t, expired)))
    .returning({ id: t.id });
}

export const sweepWebhookAttempts = (db: DbHandle, now = Date.now(), run?: JobRun): Promise<SweepOutcome> =>
  sweepEachClinic(
    db,
    run,
    { table: webhookAttempts, where: expiredAttempts(now) },
    async (tx, limit, clinic) => (await expiredAttemptsBatch(tx, now, limit, clinic)).length,
  );

/** The statuses of a settled message: the only ones swept. */
export const SETTLED = ['delivered', 'failed'] as const;

/** What the sweep deletes: the condition its batches and its list of clinics share. */
const expiredMessages = (now: number, status: (typeof SETTLED)[number]) =>
  and(eq(webhookMessages.status, status), lt(webhookMessages.updated_at, cutoffOf(now, MESSAGES_KEPT_DAYS)));

/**
 * One batch of the messages sweep for one settled status, oldest last attempt first, by
 * webhook_messages_sweep_idx (status, updated_at): one status at a time, so the index yields the order
 * (an `IN` of both would be two ranges the planner cannot merge in order) and pending rows are never read.
 */
export function expiredMessagesBatch(
  tx: Db,
  now: number,
  limit: number,
  status: (typeof SETTLED)[number],
  clinic?: number,
) {
  const t = webhookMessages;
  const expired = tx
    .select(keyOf(t))
    .from(t)
    .where(and(ofClinic(t, clinic), expiredMessages(now, status)))
    .orderBy(asc(t.updated_at))
    .limit(limit);
  return tx
    .delete(t)
    .where(and(ofClinic(t, clinic), keyIn(t, expired)))
    .returning({ id: t.id });
}

export async function sweepWebhookMessages(db: DbHandle, now = Date.now(), run?: JobRun): Promise<SweepOutcome> {
  const bound = paceOf(db).rowsPerRun;
  let deleted = 0;
  for (const status of SETTLED) {
    // One bound for the run, across both statuses.
    if (deleted >= bound) return { deleted, again: true };
    const o = await sweepEachClinic(
      db,
      run,
      { table: webhookMessages, where: expiredMessages(now, status) },
      async (tx, limit, clinic) => (await expiredMessagesBatch(tx, now, limit, status, clinic)).length,
      bound - deleted,
    );
    deleted += o.deleted;
    if (o.again) return { deleted, again: true };
  }
  return { deleted, again: false };
}
