import { and, asc, lt } from 'drizzle-orm';
import { keyIn, keyOf } from '../../db/dialect';
import type { Db, DbHandle } from '../../db/client';
import { deletedEntities, events } from '../../db/schema';
import { EVENTS_KEPT_DAYS } from '../resources/events';
import type { JobRun } from '../scheduler/scheduler';
import { cutoffOf, ofClinic, sweepCutoff, sweepEachClinic, type SweepOutcome } from '../scheduler/sweep-batches';

/**
 * How long GET /deleted_entities lists a deletion: a year, twelve times the events feed. A polling client
 * learns of deletions only here (a deleted record has no `updated_at` left to filter on), and a client
 * that stopped polling for months (an integration paused, its key expired: keys last at most a year) must
 * still find them when it comes back; the rows are small (an id, a name, a time) and written only on deletes.
 */
export const DELETED_ENTITIES_KEPT_DAYS = 365;

/** What the sweep deletes: the condition its batches and its list of clinics share. */
const expiredEvents = (now: number) => lt(events.occurred_at, sweepCutoff(events, now, EVENTS_KEPT_DAYS));

/** One batch of the events sweep: at most `limit` events older than the feed's window, oldest first, by events_sweep_idx. */
export function expiredEventsBatch(tx: Db, now: number, limit: number, clinic?: number) {
  const expired = tx
    .select(keyOf(events))
    .from(events)
    .where(and(ofClinic(events, clinic), expiredEvents(now)))
    .orderBy(asc(events.occurred_at))
    .limit(limit);
  return tx
    .delete(events)
    .where(and(ofClinic(events, clinic), keyIn(events, expired)))
    .returning({ id: events.id });
}

/**
 * Events leave the outbox once the feed no longer shows them (GET /events: 30 days). Their webhook
 * messages keep their own payload, so deliveries and replays of messages are unaffected.
 */
export const sweepEvents = (db: DbHandle, now = Date.now(), run?: JobRun): Promise<SweepOutcome> =>
  sweepEachClinic(
    db,
    run,
    { table: events, where: expiredEvents(now) },
    async (tx, limit, clinic) => (await expiredEventsBatch(tx, now, limit, clinic)).length,
  );

/** What the sweep deletes: the condition its batches and its list of clinics share. */
const expiredDeletions = (now: number) => lt(deletedEntities.deleted_at, cutoffOf(now, DELETED_ENTITIES_KEPT_DAYS));

/** One batch of the deleted_entities sweep, oldest first, by deleted_entities_sweep_idx. */
export function expiredDeletionsBatch(tx: Db, now: number, limit: number, clinic?: number) {
  const t = deletedEntities;
  const expired = tx
    .select(keyOf(t))
    .from(t)
    .where(and(ofClinic(t, clinic), expiredDeletions(now)))
    .orderBy(asc(t.deleted_at))
    .limit(limit);
  return tx
    .delete(t)
    .where(and(ofClinic(t, clinic), keyIn(t, expired)))
    .returning({ id: t.id });
}

/** Deletions leave GET /deleted_entities a year after they happened (DELETED_ENTITIES_KEPT_DAYS). */
export const sweepDeletedEntities = (db: DbHandle, now = Date.now(), run?: JobRun): Promise<SweepOutcome> =>
  sweepEachClinic(
    db,
    run,
    { table: deletedEntities, where: expiredDeletions(now) },
    async (tx, limit, clinic) => (await expiredDeletionsBatch(tx, now, limit, clinic)).length,
  );
