/**
 * Stored idempotent responses leave once the replay window (24 hours) has passed, in batches
 * (server/scheduler/sweep-batches.ts) by idempotency_keys_sweep_idx (created_at). The primary key is
 * (account_id, key), so a batch names its rows by that pair.
 */
import { and, asc, lt, sql } from 'drizzle-orm';
import type { Db, DbHandle } from '../../db/client';
import { idempotencyKeys } from '../../db/schema';
import type { JobRun } from '../scheduler/scheduler';
import { ofClinic, sweepEachClinic, type SweepOutcome } from '../scheduler/sweep-batches';
import { IDEMPOTENCY_WINDOW_MS } from './idempotency';

/** What the sweep deletes: the condition its batches and its list of clinics share. */
const expiredKeys = (now: number) =>
  lt(idempotencyKeys.created_at, new Date(now - IDEMPOTENCY_WINDOW_MS).toISOString());

/** One batch: at most `limit` keys past the window, oldest first. */
export function expiredKeysBatch(tx: Db, now: number, limit: number, clinic?: number) {
  const t = idempotencyKeys;
  const expired = tx
    .select({ account_id: t.account_id, key: t.key })
    .from(t)
    .where(and(ofClinic(t, clinic), expiredKeys(now)))
    .orderBy(asc(t.created_at))
    .limit(limit);
  return tx
    .delete(t)
    .where(and(ofClinic(t, clinic), sql`(${t.account_id}, ${t.key}) in (${expired})`))
    .returning({ key: t.key });
}

export const sweepIdempotencyKeys = (db: DbHandle, now = Date.now(), run?: JobRun): Promise<SweepOutcome> =>
  sweepEachClinic(
    db,
    run,
    { table: idempotencyKeys, where: expiredKeys(now) },
    async (tx, limit, clinic) => (await expiredKeysBatch(tx, now, limit, clinic)).length,
  );
