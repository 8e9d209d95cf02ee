/**
 * The one way a retention sweep deletes: a batch of rows per statement, each its own short transaction,
 * the lease renewed between batches, and a bound per run after which the job answers `{ again: true }`
 * (the scheduler runs it again at its next tick, server/scheduler/scheduler.ts). Measured on 1M expired
 * events, one DELETE was a 1.2 s transaction and 172 MB of WAL holding locks and a connection throughout;
 * batches commit what they did, so a run that dies (or loses its lease) leaves a smaller backlog and the
 * next run simply deletes what is still expired: a sweep is idempotent.
 *
 * A batch is `DELETE … WHERE key IN (SELECT key … WHERE <expired> LIMIT n)`: the inner select walks an
 * index on the time column (each table's sweep names it; server/test/sweeps.test.ts shows the plans).
 *
 * Between batches the sweep pauses: on SQLite every statement runs on the event loop (better-sqlite3 is
 * synchronous), so a request that arrives during a batch waits for it. A pause of `pauseFactor` × the
 * batch's own time keeps the sweep to a fraction of the loop (and of the database), so few requests meet
 * a batch at all (bench/sweep.ts: GET /patients/{id}'s p99 while 1M expired events are swept).
 *
 * On Citus a batch over every clinic is a statement over every shard: a distributed subplan finds the
 * oldest rows of all shards, their keys are sent to every node, and every shard runs the delete (100 rows
 * took ~100 ms on three loopback nodes; the pacing read that as a slow batch and shrank it until the sweep
 * deleted ~40 rows a second). There `sweepEachClinic` sweeps each clinic with expired rows on its own:
 * its batches name the clinic, so they are router statements on its shard, and the pacing measures
 * that shard's cost. The clinics are found by one statement over every shard per run.
 */
import { setImmediate as yieldLoop, setTimeout as sleep } from 'node:timers/promises';
import { eq, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { onCitus } from '../../db/citus';
import type { Db, DbHandle } from '../../db/client';
import { isPg, partitionColumnOf } from '../../db/dialect';
import type { JobRun, JobResult } from './scheduler';

export interface SweepPace {
  /** Rows per statement, at most. */
  batch: number;
  /** Rows per run, about (a run stops after the batch that reaches it) and asks to come back (`again`). */
  rowsPerRun: number;
  /** Pause after a batch, as a multiple of the time the batch took (0: none, as the tests run). */
  pauseFactor: number;
  /**
   * The time a batch should take (0: every batch `batch` rows): each next batch's rows are scaled by how
   * long the last one took, between MIN_ROWS and `batch`.
   */
  batchMs: number;
}

const MIN_ROWS = 10;

/**
 * The pace per database. SQLite's batch runs on the event loop, so its rows are fitted to ~1 ms (fewer on
 * a big or busy table) and a pause of 9× leaves the loop ~90% free: few requests meet a batch, and one
 * that does waits about a millisecond. Measured (bench/sweep.ts, GET /patients/{id}'s p99): 500-row
 * batches at 25% of the loop moved it 2.4 ms on 100,000 events; 100-row ones at 10% 0.35 ms there but
 * 2.5 ms on 1M (a batch took ~5 ms on the bigger indexes). PostgreSQL's batch runs on the server, off
 * the event loop, but a request that meets one shares the database's CPU and disk with it for as long as
 * it lasts: batches are fitted to ~25 ms (at most 5,000 rows) with a pause of 4× after each. Measured on
 * the 2-core bench machine (busy with other work), 1M expired events: fixed 5,000-row batches moved the
 * p99 by 7.7 ms at a pause of 1× and 4.05 ms at 4×; 25 ms batches at 4× kept it within 2 ms, the sweep
 * taking about 2 minutes (bench/sweep.ts; figures in docs/decisions.md).
 */
export const DEFAULT_PACE: Record<DbHandle['dialect'], SweepPace> = {
  sqlite: { batch: 500, rowsPerRun: 200_000, pauseFactor: 9, batchMs: 1 },
  pg: { batch: 5_000, rowsPerRun: 200_000, pauseFactor: 4, batchMs: 25 },
};

/** How often a run renews its lease: well inside the shortest lease (the scheduler's default is 5 min). */
const RENEW_EVERY_MS = 5_000;

let override: Partial<SweepPace> | null = null;

/** Tests and the bench set the pace (e.g. a small per-run bound, or no pause); null restores the default. */
export function setSweepPace(pace: Partial<SweepPace> | null): void {
  override = pace;
}

export const paceOf = (db: DbHandle): SweepPace => ({ ...DEFAULT_PACE[db.dialect], ...override });

export interface SweepOutcome {
  deleted: number;
  /** Stopped at the per-run bound (or on losing the lease) with rows perhaps left. */
  again: boolean;
}

/** What a batch did: the rows it deleted, or those and whether more may be left (by default: a full batch). */
export type BatchResult = number | { deleted: number; more: boolean };

/**
 * Runs `deleteBatch(tx, n)` (which deletes at most n expired rows) until a batch says nothing is left,
 * the run's bound is reached, or the lease is lost. `bound`: the rows left to the run, when a sweep runs
 * several of these one after another (server/oauth/sweep.ts).
 */
export async function sweepInBatches(
  db: DbHandle,
  run: JobRun | undefined,
  deleteBatch: (tx: Db, limit: number) => Promise<BatchResult>,
  bound?: number,
): Promise<SweepOutcome> {
  const pace = paceOf(db);
  const rowsPerRun = bound ?? pace.rowsPerRun;
  let deleted = 0;
  let renewed = -Infinity;
  let rows = pace.batchMs > 0 ? Math.min(MIN_ROWS, pace.batch) : pace.batch;
  while (deleted < rowsPerRun) {
    const started = performance.now();
    const result = await db.transaction((tx) => deleteBatch(tx, rows));
    const n = typeof result === 'number' ? result : result.deleted;
    deleted += n;
    if (!(typeof result === 'number' ? n >= rows : result.more)) return { deleted, again: false };
    const took = performance.now() - started;
    // Halved at most, doubled at most: one slow batch (a checkpoint, the machine busy) does not swing it.
    if (pace.batchMs > 0)
      rows = Math.max(
        Math.min(MIN_ROWS, pace.batch),
        Math.min(pace.batch, Math.round(rows * Math.min(2, Math.max(0.5, pace.batchMs / Math.max(took, 0.01))))),
      );
    if (pace.pauseFactor > 0) await sleep(Math.min(took * pace.pauseFactor, 1_000));
    else await yieldLoop();
    // The lease lost (another process took over, or the scheduler stops): leave, what is done is committed.
    // Renewed every RENEW_EVERY_MS, not every batch: a renewal is a commit too (on SQLite, on the event loop).
    if (run && performance.now() - renewed >= RENEW_EVERY_MS) {
      if (!(await run.renew())) return { deleted, again: true };
      renewed = performance.now();
    }
  }
  return { deleted, again: true };
}

/** A batch's condition on its clinic: none (every clinic's rows), or the one clinic swept (on Citus). */
export const ofClinic = (t: { account_id: AnyColumn }, clinic: number | undefined): SQL | undefined =>
  clinic === undefined ? undefined : eq(t.account_id, clinic);

/**
 * `sweepInBatches` once over every clinic, or on Citus once for each clinic that has rows of `table`
 * matching `expired` (the batch is then given the clinic: it must name it, with `ofClinic`, in the rows
 * it reads and in the delete). The bound is the run's, across the clinics.
 */
export async function sweepEachClinic(
  db: DbHandle,
  run: JobRun | undefined,
  expired: { table: PgTable & { account_id: PgColumn }; where: SQL | undefined },
  deleteBatch: (tx: Db, limit: number, clinic?: number) => Promise<BatchResult>,
  bound?: number,
): Promise<SweepOutcome> {
  if (!(await onCitus(db))) return sweepInBatches(db, run, (tx, limit) => deleteBatch(tx, limit), bound);
  const rowsPerRun = bound ?? paceOf(db).rowsPerRun;
  const t = expired.table;
  const clinics = await db.db.selectDistinct({ id: t.account_id }).from(t).where(expired.where);
  let deleted = 0;
  for (const { id } of clinics) {
    const o = await sweepInBatches(db, run, (tx, limit) => deleteBatch(tx, limit, Number(id)), rowsPerRun - deleted);
    deleted += o.deleted;
    if (o.again) return { deleted, again: true };
  }
  return { deleted, again: false };
}

export const DAY = 86_400_000;

/** The time before which rows `days` old are expired, as stored. */
export const cutoffOf = (now: number, days: number) => new Date(now - days * DAY).toISOString();

/** The first instant a table keeping `days` days holds when it goes by whole days: the start (UTC) of the oldest day kept. */
export const keptFrom = (now: number, days: number): number => Math.floor((now - days * DAY) / DAY) * DAY;

/**
 * What a row sweep of `table` deletes before. A table partitioned by day on PostgreSQL (db/dialect.ts
 * `partitionedBy`) keeps whole days: its row sweep stops at the oldest day kept, whose partition goes
 * whole (server/jobs/partitions.ts), and so only ever deletes from the partitions that are not a day's.
 */
export const sweepCutoff = (table: object, now: number, days: number): string =>
  isPg && partitionColumnOf(table) ? new Date(keptFrom(now, days)).toISOString() : cutoffOf(now, days);

/** A sweep as a job's run: the outcome's `again` is what the scheduler reads. */
export const asJobResult = (o: SweepOutcome): JobResult => ({ again: o.again });
