/**
 * The job `offsets.compact`: folds the changes the triggers of migration 0044 add (a row per insert,
 * delete, removal or restore of a counted table's rows) into the counts per range of ids, so a deep
 * offset page (server/list/offsets.ts) adds a clinic's few hundred ranges and the last minute's changes,
 * not every change ever made. Exact either way: a reader adds both tables, and each fold moves rows
 * from one to the other in one statement (PostgreSQL) or one write transaction (SQLite), so no reader
 * sees a change twice or not at all.
 */
import { sql } from 'drizzle-orm';
import { allIn, type DbHandle } from '../../db/client';
import { onCitus } from '../../db/citus';
import { isPg } from '../../db/dialect';
import type { Job } from '../scheduler/scheduler';

export const COMPACT_OFFSETS_JOB = 'offsets.compact';
const EVERY_MS = 60_000;

/** Folds every change into the counts; returns how many changes were folded. */
export async function compactOffsetCounts(db: DbHandle): Promise<number> {
  return db.transaction(async (tx) => {
    let folded: number;
    if (isPg) {
      // Changes committed after this statement's snapshot are not deleted: the next fold takes them.
      const [row] = await allIn<{ n: string }>(
        tx,
        sql`with moved as (delete from offset_count_changes returning account_id, entity, bucket, delta),
          folded as (
            insert into offset_counts (account_id, entity, bucket, live)
            select account_id, entity, bucket, sum(delta) from moved group by account_id, entity, bucket
            on conflict (account_id, entity, bucket) do update set live = offset_counts.live + excluded.live
          )
          select count(*) as n from moved`,
      );
      folded = Number(row.n);
    } else {
      // One writer at a time on SQLite: no change is added between these statements.
      const [row] = await allIn<{ n: number }>(tx, sql`select count(*) as n from offset_count_changes`);
      folded = row.n;
      await allIn(
        tx,
        sql`insert into offset_counts (account_id, entity, bucket, live)
          select account_id, entity, bucket, sum(delta) from offset_count_changes where true
          group by account_id, entity, bucket
          on conflict (account_id, entity, bucket) do update set live = live + excluded.live returning 1`,
      );
      await allIn(tx, sql`delete from offset_count_changes returning 1`);
    }
    if (folded > 0) await allIn(tx, sql`delete from offset_counts where live = 0 returning 1`);
    return folded;
  });
}

export const compactOffsetsJob = (db: DbHandle): Job => ({
  name: COMPACT_OFFSETS_JOB,
  everyMs: EVERY_MS,
  run: async () => {
    // A cluster keeps no counts (migration 0044), and a statement over every shard each minute is dear.
    if (!(await onCitus(db))) await compactOffsetCounts(db);
  },
});
