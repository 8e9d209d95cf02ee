import { lt } from 'drizzle-orm';
import type { DbHandle } from '../../db/client';
import { events } from '../../db/schema';
import { EVENTS_KEPT_DAYS } from '../resources/events';

/**
 * Events leave the outbox once the feed no longer shows them (GET /events: 30 days). Their webhook
 * messages keep their own payload, so deliveries and replays of messages are unaffected.
 */
export async function sweepEvents(db: DbHandle, now = Date.now()): Promise<void> {
  const cutoff = new Date(now - EVENTS_KEPT_DAYS * 86_400_000).toISOString();
  await db.transaction((tx) => tx.delete(events).where(lt(events.occurred_at, cutoff)));
}
