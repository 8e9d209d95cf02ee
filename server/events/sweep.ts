import { asc, inArray, lt } from 'drizzle-orm';
import type { DbHandle } from '../../db/client';
import { deletedEntities, events } from '../../db/schema';
import { EVENTS_KEPT_DAYS } from '../resources/events';
import type { JobRun } from '../jobs/scheduler';
import { sweepInBatches, type SweepOutcome } from '../jobs/sweep-batches';

/**
 * How long GET /deleted_entities lists a deletion: a year, twelve times the events feed. A polling client
 * learns of deletions only here (deletions have no `updated_at` to filter on), and a client that stopped
 * polling for months (an integration paused, its key expired: keys last at most a year) must still find
 * them when it comes back; the rows are small (an id, a name, a time) and written only on deletes.
 */
export const DELETED_ENTITIES_KEPT_DAYS = 365;

const cutoffOf = (now: number, days: number) => new Date(now - days * 86_400_000).toISOString();

/**
 * Events leave the outbox once the feed no longer shows them (GET /events: 30 days). Their webhook
 * messages keep their own payload, so deliveries and replays of messages are unaffected. Batches walk
 * events_sweep_idx (occurred_at), oldest first.
 */
export async function sweepEvents(db: DbHandle, now = Date.now(), run?: JobRun): Promise<SweepOutcome> {
  const cutoff = cutoffOf(now, EVENTS_KEPT_DAYS);
  return sweepInBatches(db, run, async (tx, limit) => {
    const expired = tx.select({ id: events.id }).from(events).where(lt(events.occurred_at, cutoff)).orderBy(asc(events.occurred_at)).limit(limit);
    return (await tx.delete(events).where(inArray(events.id, expired)).returning({ id: events.id })).length;
  });
}

/** Deletions leave GET /deleted_entities a year after they happened (DELETED_ENTITIES_KEPT_DAYS); by deleted_entities_sweep_idx. */
export async function sweepDeletedEntities(db: DbHandle, now = Date.now(), run?: JobRun): Promise<SweepOutcome> {
  const cutoff = cutoffOf(now, DELETED_ENTITIES_KEPT_DAYS);
  const t = deletedEntities;
  return sweepInBatches(db, run, async (tx, limit) => {
    const expired = tx.select({ id: t.id }).from(t).where(lt(t.deleted_at, cutoff)).orderBy(asc(t.deleted_at)).limit(limit);
    return (await tx.delete(t).where(inArray(t.id, expired)).returning({ id: t.id })).length;
  });
}
