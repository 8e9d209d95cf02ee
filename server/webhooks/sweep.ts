/**
 * What webhook delivery keeps, and for how long:
 * - attempts 30 days after they were made (the portal's delivery log and charts read them);
 * - messages 30 days after their last attempt (updated_at), once settled (delivered or failed). A pending
 *   message, held by a disabled endpoint or waiting for a retry, is never swept: it is a delivery still
 *   owed. By then its attempts are gone too; an integrator wanting an older event again reads the events
 *   feed (30 days) or the record itself.
 * Each in batches (server/jobs/sweep-batches.ts), by an index on the time column.
 */
import { and, asc, inArray, lt } from 'drizzle-orm';
import type { DbHandle } from '../../db/client';
import { webhookAttempts, webhookMessages } from '../../db/schema';
import type { JobRun } from '../jobs/scheduler';
import { sweepInBatches, type SweepOutcome } from '../jobs/sweep-batches';

export const ATTEMPTS_KEPT_DAYS = 30;
export const MESSAGES_KEPT_DAYS = 30;

const cutoffOf = (now: number, days: number) => new Date(now - days * 86_400_000).toISOString();

/** By webhook_attempts_created_idx (created_at), oldest first. */
export async function sweepWebhookAttempts(db: DbHandle, now = Date.now(), run?: JobRun): Promise<SweepOutcome> {
  const cutoff = cutoffOf(now, ATTEMPTS_KEPT_DAYS);
  const t = webhookAttempts;
  return sweepInBatches(db, run, async (tx, limit) => {
    const expired = tx.select({ id: t.id }).from(t).where(lt(t.created_at, cutoff)).orderBy(asc(t.created_at)).limit(limit);
    return (await tx.delete(t).where(inArray(t.id, expired)).returning({ id: t.id })).length;
  });
}

/** By webhook_messages_sweep_idx (status, updated_at): one range per settled status, none over pending rows. */
export async function sweepWebhookMessages(db: DbHandle, now = Date.now(), run?: JobRun): Promise<SweepOutcome> {
  const cutoff = cutoffOf(now, MESSAGES_KEPT_DAYS);
  const t = webhookMessages;
  return sweepInBatches(db, run, async (tx, limit) => {
    const expired = tx
      .select({ id: t.id })
      .from(t)
      .where(and(inArray(t.status, ['delivered', 'failed']), lt(t.updated_at, cutoff)))
      .limit(limit);
    return (await tx.delete(t).where(inArray(t.id, expired)).returning({ id: t.id })).length;
  });
}
