/**
 * The scheduler's leases: two schedulers on the suite's database, as two server processes or two
 * deployments would have them. On PostgreSQL each has its own pool. On SQLite they share one handle:
 * better-sqlite3 is synchronous, so a second connection in the same process waiting for the write lock
 * would block the very thread that must release it; across processes the lock is BEGIN IMMEDIATE's
 * (server/test/cluster.test.ts runs processes on one file). Only one runs a job at a time; a job is due again after its interval whoever
 * ran it; a holder that died is replaced once its lease expires, and coming back late it cannot undo
 * its successor's schedule. The clock is the test's: ticks are called by hand.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDb, type DbHandle } from '../../db/client';
import { isPg } from '../../db/dialect';
import { jobLeases } from '../../db/schema';
import { Scheduler, type Job, type JobRun } from '../scheduler/scheduler';
import { startServer, uniqueName } from './helpers';
import { ownDatabaseUrl } from './support/own-database';

const LEASE_MS = 60_000;
const EVERY_MS = 600_000;
const T0 = Date.parse('2030-03-04T10:00:00.000Z');

let dbA: DbHandle;
let dbB: DbHandle;
beforeAll(async () => {
  dbA = await openDb(process.env.DATABASE_URL!);
  dbB = isPg ? await openDb(process.env.DATABASE_URL!) : dbA;
});
afterAll(async () => {
  await dbA?.close();
  if (dbB !== dbA) await dbB?.close();
});

/** A job that records which scheduler ran it; `hold` makes its runs wait until released. */
function recordingJob(name = uniqueName('job'), everyMs = EVERY_MS) {
  const runs: { by: string; at: number; run: JobRun }[] = [];
  let gate: Promise<void> | null = null;
  let open = () => undefined as void;
  const job = (by: string): Job => ({
    name,
    everyMs,
    run: async (run) => {
      runs.push({ by, at: run.now(), run });
      if (gate) await gate;
    },
  });
  return {
    name,
    runs,
    job,
    hold() {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    release() {
      gate = null;
      open();
    },
  };
}

/** Two schedulers of the same job on their own connections, each on the clock `at` returns. */
function pair(jobs: (by: string) => Job[], at: () => number) {
  const errors: unknown[] = [];
  const make = (db: DbHandle, by: string) =>
    new Scheduler(db, jobs(by), {
      holder: `${by}-${uniqueName()}`,
      now: at,
      leaseMs: LEASE_MS,
      onError: (err) => errors.push(err),
    });
  return { a: make(dbA, 'a'), b: make(dbB, 'b'), errors };
}

const leaseOf = async (name: string) => (await dbA.db.select().from(jobLeases).where(eq(jobLeases.name, name)))[0];

describe('one scheduler runs a job at a time, across connections', () => {
  test('two schedulers ticking together: exactly one runs the job; the other skips it', async () => {
    const j = recordingJob();
    const now = T0;
    const { a, b, errors } = pair(
      (by) => [j.job(by)],
      () => now,
    );
    const [ranA, ranB] = await Promise.all([a.tick(), b.tick()]);
    expect([...ranA, ...ranB]).toEqual([j.name]);
    expect(j.runs.length).toBe(1);
    // Released, due one interval after the run, held by nobody.
    expect(await leaseOf(j.name)).toMatchObject({ holder: null, due_at: new Date(T0 + EVERY_MS).toISOString() });
    expect(errors).toEqual([]);
  });

  test('many ticks of both, racing, over several jobs: each job runs once', async () => {
    const jobs = [recordingJob(), recordingJob(), recordingJob()];
    const { a, b } = pair(
      (by) => jobs.map((j) => j.job(by)),
      () => T0,
    );
    await Promise.all([a.tick(), b.tick(), a.tick(), b.tick(), b.tick(), a.tick()]);
    for (const j of jobs) expect(j.runs.length).toBe(1);
  });

  test('while one holds the lease (its run in progress), the other does not run the job, due or not', async () => {
    const j = recordingJob();
    let now = T0;
    const { a, b } = pair(
      (by) => [j.job(by)],
      () => now,
    );
    j.hold();
    const running = a.tick();
    while (j.runs.length === 0) await new Promise((r) => setImmediate(r));
    expect(await b.tick()).toEqual([]);
    now = T0 + LEASE_MS - 1;
    expect(await b.tick()).toEqual([]);
    j.release();
    expect(await running).toEqual([j.name]);
    expect(j.runs.map((r) => r.by)).toEqual(['a']);
  });

  test('due again after its interval, whoever runs it; not before', async () => {
    const j = recordingJob();
    let now = T0;
    const { a, b } = pair(
      (by) => [j.job(by)],
      () => now,
    );
    expect(await a.tick()).toEqual([j.name]);
    now = T0 + EVERY_MS - 1;
    expect([...(await a.tick()), ...(await b.tick())]).toEqual([]);
    now = T0 + EVERY_MS;
    expect(await b.tick()).toEqual([j.name]);
    expect(await a.tick()).toEqual([]);
    expect(j.runs.map((r) => [r.by, r.at])).toEqual([
      ['a', T0],
      ['b', T0 + EVERY_MS],
    ]);
  });

  test('a crashed holder: its lease is taken once expired, not before; back late, it cannot renew nor reschedule', async () => {
    const j = recordingJob();
    let now = T0;
    const { a, b } = pair(
      (by) => [j.job(by)],
      () => now,
    );
    // a takes the job and never finishes (a process that died mid-run holds its lease until it expires).
    j.hold();
    const stuck = a.tick();
    while (j.runs.length === 0) await new Promise((r) => setImmediate(r));
    now = T0 + LEASE_MS - 1;
    expect(await b.tick()).toEqual([]);
    now = T0 + LEASE_MS;
    const handedOver = b.tick();
    while (j.runs.length === 1) await new Promise((r) => setImmediate(r));
    expect(j.runs[1].by).toBe('b');
    // The old holder wakes up: its lease is gone.
    expect(await j.runs[0].run.renew()).toBe(false);
    expect(await j.runs[1].run.renew()).toBe(true);
    j.release();
    await Promise.all([stuck, handedOver]);
    // b's release set the schedule; a's (no longer the holder) changed nothing.
    expect(await leaseOf(j.name)).toMatchObject({
      holder: null,
      due_at: new Date(T0 + LEASE_MS + EVERY_MS).toISOString(),
    });
  });

  test('a job whose lease expired while an earlier job of the same tick ran is left to whoever took it', async () => {
    const first = recordingJob(`a${uniqueName()}`);
    const second = recordingJob(`b${uniqueName()}`);
    let now = T0;
    const { a, b } = pair(
      (by) => [first.job(by), second.job(by)],
      () => now,
    );
    first.hold();
    const late = a.tick();
    while (first.runs.length === 0) await new Promise((r) => setImmediate(r));
    // a's first job outlasts the lease: b takes both expired leases.
    now = T0 + LEASE_MS;
    const taking = b.tick();
    while (first.runs.length === 1) await new Promise((r) => setImmediate(r));
    first.release();
    await Promise.all([late, taking]);
    expect(second.runs.map((r) => r.by)).toEqual(['b']);
  });

  test('a job asking to run again is due at the next tick; a failing job is reported and waits its interval', async () => {
    let left = 3;
    const drained: number[] = [];
    const draining: Job = {
      name: uniqueName('drain'),
      everyMs: EVERY_MS,
      run: async () => (drained.push(--left), { again: left > 0 }),
    };
    const failing: Job = {
      name: uniqueName('fail'),
      everyMs: EVERY_MS,
      run: async () => {
        throw new Error('boom');
      },
    };
    const { a, b, errors } = pair(
      () => [draining, failing],
      () => T0,
    );
    await a.tick();
    await b.tick();
    await a.tick();
    await b.tick();
    expect(drained).toEqual([2, 1, 0]);
    expect(errors.map((e) => (e as Error).message)).toEqual(['boom']);
    expect(await leaseOf(failing.name)).toMatchObject({ holder: null, due_at: new Date(T0 + EVERY_MS).toISOString() });
  });

  test('stopping: the running job sees renew() false; its lease is released, the job due after its interval', async () => {
    const j = recordingJob();
    const { a, b } = pair(
      (by) => [j.job(by)],
      () => T0,
    );
    j.hold();
    a.start();
    while (j.runs.length === 0) await new Promise((r) => setImmediate(r));
    const stopped = a.stop();
    expect(await j.runs[0].run.renew()).toBe(false);
    j.release();
    await stopped;
    expect(await leaseOf(j.name)).toMatchObject({ holder: null });
    expect(await b.tick()).toEqual([]);
  });
});

describe("the server's scheduler", () => {
  test('runs the retention sweeps and the clinic jobs, each once per interval', async () => {
    // A database of its own: the server's jobs have the same names on every server of the suite.
    const server = await startServer({ DATABASE_URL: await ownDatabaseUrl() });
    try {
      // partitions.keep too: on SQLite it has nothing to do.
      const names = [
        'sweep.idempotency_keys',
        'sweep.events',
        'sweep.oauth',
        'sweep.webhook_attempts',
        'sweep.webhook_messages',
        'sweep.request_log',
        'sweep.deleted_entities',
        'appointments.mark_missed',
        'partitions.keep',
        'offsets.compact',
        'statistics.refresh',
      ];
      expect(server.app.jobs.jobs.sort()).toEqual([...names].sort());
      expect((await server.app.jobs.tick()).sort()).toEqual([...names].sort());
      expect(await server.app.jobs.tick()).toEqual([]);
      const leases = await server.app.db.db.select().from(jobLeases);
      expect(leases.map((l) => [l.name, l.holder]).sort()).toEqual(names.map((n) => [n, null]).sort());
    } finally {
      await server.close();
    }
  });
});
