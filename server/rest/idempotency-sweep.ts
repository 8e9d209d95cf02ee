/**
 * Stored idempotent responses leave once the replay window (24 hours) has passed, in batches
 * (server/jobs/sweep-batches.ts) by idempotency_keys_sweep_idx (created_at). The primary key is
 * (account_id, key), so a batch names its rows by that pair.
 */
import { asc, lt, sql } from 'drizzle-orm';
import type { Db, DbHandle } from '../../db/client';
import { idempotencyKeys } from '../../db/schema';
import type { JobRun } from '../jobs/scheduler';
import { sweepInBatches, type SweepOutcome } from '../jobs/sweep-batches';
import { IDEMPOTENCY_WINDOW_MS } from './idempotency';

/** One batch: at most `limit` keys past the window, oldest first. */
export function expiredKeysBatch(tx: Db, now: number, limit: number) {
  const t = idempotencyKeys;
  const cutoff = new Date(now - IDEMPOTENCY_WINDOW_MS).toISOString();
  const expired = tx
    .select({ account_id: t.account_id, key: t.key })
    .from(t)
    .where(lt(t.created_at, cutoff))
    .orderBy(asc(t.created_at))
    .limit(limit);
  return tx
    .delete(t)
    .where(sql`(${t.account_id}, ${t.key}) in (${expired})`)
    .returning({ key: t.key });
}

export const sweepIdempotencyKeys = (db: DbHandle, now = Date.now(), run?: JobRun): Promise<SweepOutcome> =>
  sweepInBatches(db, run, async (tx, limit) => (await expiredKeysBatch(tx, now, limit)).length);
