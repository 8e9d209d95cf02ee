/**
 * Time partitions on PostgreSQL (issue 28 §3). Events, the request log and webhook attempts only ever
 * grow at the present and are kept a fixed number of days, so each is partitioned by day on its time
 * column (db/schema: `partitionedBy`; migration 0032 made the tables). This job, hourly on one process:
 * - makes the partitions of the next DAYS_AHEAD days, so a row always has its day's partition ready;
 * - drops a partition once every row it can hold is past the table's retention: a drop is a catalog
 *   change (measured here: ~0.1 s and kilobytes of WAL for a day of rows, against a DELETE of the same
 *   rows writing every row and its index entries to WAL, then vacuum).
 * Rows therefore live up to a day beyond their retention: they go with their day. The partitions a day
 * does not cover (`<table>_legacy`, the rows from before the migration, and `<table>_default`, rows of a
 * day without a partition: a wrong clock) are left to the tables' batched row sweeps, which delete
 * only rows older than the oldest day kept (`keptFrom`, server/scheduler/sweep-batches.ts). A tick runs the
 * jobs due in order of due time, then name: `partitions.keep` before `sweep.*`, so a day past retention
 * is dropped before a sweep could delete its rows one by one.
 * DDL waits at most LOCK_TIMEOUT for the table (creating or dropping a partition takes a brief exclusive
 * lock on it); a run that cannot have it tries again at the next tick. SQLite: nothing to do.
 */
import { getTableName, sql } from 'drizzle-orm';
import { allIn, type DbHandle } from '../../db/client';
import { events, requestLog, webhookAttempts } from '../../db/schema';
import { EVENTS_KEPT_DAYS } from '../resources/events';
import { RETENTION_DAYS } from '../rest/request-log-sweep';
import { ATTEMPTS_KEPT_DAYS } from '../webhooks/sweep';
import type { Job } from '../scheduler/scheduler';
import { DAY, keptFrom } from '../scheduler/sweep-batches';

/** Day partitions made ahead of today. */
export const DAYS_AHEAD = 7;
const LOCK_TIMEOUT = '5s';

/** The tables partitioned by day, with how many days each keeps. */
export const PARTITIONED = [
  { table: events, keepDays: EVENTS_KEPT_DAYS },
  { table: requestLog, keepDays: RETENTION_DAYS },
  { table: webhookAttempts, keepDays: ATTEMPTS_KEPT_DAYS },
] as const;

const dayName = (table: string, day: number) =>
  `${table}_p${new Date(day).toISOString().slice(0, 10).replace(/-/g, '')}`;

interface Partition {
  name: string;
  /** Where its range ends (exclusive); null for the default partition. */
  to: number | null;
}

/** PostgreSQL prints a bound as `'2026-11-28 00:00:00+00'`. */
const BOUND_TO = /TO \('(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)\+00'\)/;

async function partitionsOf(db: DbHandle, table: string): Promise<Partition[]> {
  const rows = await db.all<{ name: string; bound: string }>(sql`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
    where p.oid = to_regclass(${table})`);
  return rows.map((r) => {
    const to = BOUND_TO.exec(r.bound);
    return { name: r.name, to: to ? Date.parse(`${to[1]}T${to[2]}Z`) : null };
  });
}

/** One DDL statement in a transaction of its own, waiting at most LOCK_TIMEOUT for its locks. */
const ddl = (db: DbHandle, statement: string) =>
  db.transaction(async (tx) => {
    await allIn(tx, sql.raw(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`));
    await allIn(tx, sql.raw(statement));
  });

export interface PartitionsKept {
  created: string[];
  dropped: string[];
  /** Partitions that could not be made or dropped this time (a lock not had, default rows in the way). */
  failed: string[];
}

export async function keepPartitions(db: DbHandle, now = Date.now()): Promise<PartitionsKept> {
  const kept: PartitionsKept = { created: [], dropped: [], failed: [] };
  if (db.dialect !== 'pg') return kept;
  const today = Math.floor(now / DAY) * DAY;
  for (const { table, keepDays } of PARTITIONED) {
    const name = getTableName(table);
    const parts = await partitionsOf(db, name);
    if (parts.length === 0) continue;
    const from = keptFrom(now, keepDays);
    for (const p of parts) {
      if (p.to === null || p.to > from) continue;
      try {
        await ddl(db, `DROP TABLE "${p.name}"`);
        kept.dropped.push(p.name);
      } catch {
        kept.failed.push(p.name);
      }
    }
    // Day partitions from the last range's end (or the oldest day kept) to DAYS_AHEAD days from today.
    const ends = parts.map((p) => p.to).filter((to): to is number => to !== null);
    for (
      let day = Math.max(ends.length ? Math.max(...ends) : today, from);
      day <= today + DAYS_AHEAD * DAY;
      day += DAY
    ) {
      const partition = dayName(name, day);
      try {
        await ddl(
          db,
          `CREATE TABLE IF NOT EXISTS "${partition}" PARTITION OF "${name}" FOR VALUES FROM ('${new Date(day).toISOString()}') TO ('${new Date(day + DAY).toISOString()}')`,
        );
        kept.created.push(partition);
      } catch {
        // Rows of that day in the default partition (or no lock): they stay there, the row sweep takes them.
        kept.failed.push(partition);
      }
    }
  }
  return kept;
}

/**
 * The job, on the database's clock rather than the app's: partitions are the database's own (every
 * server shares them, whatever its clock says), and a test moving the app's clock ahead to expire its
 * rows must not drop the days of a database shared with other tests.
 */
export const keepPartitionsJob = (db: DbHandle): Job => ({
  name: 'partitions.keep',
  everyMs: 3_600_000,
  run: async () => {
    if (db.dialect !== 'pg') return;
    const [clock] = await db.all<{ ms: number }>(sql`select (extract(epoch from now()) * 1000)::float8 as ms`);
    const kept = await keepPartitions(db, Number(clock.ms));
    if (kept.failed.length)
      throw new Error(`partitions not kept this time (tried again at the next tick): ${kept.failed.join(', ')}`);
  },
});
