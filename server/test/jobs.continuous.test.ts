/**
 * Continuous jobs: a long-lived service run by the one process holding the job's short lease. First
 * with recording services on the test's clock, two schedulers on the suite's database (on SQLite sharing
 * one handle, as in server/test/jobs.scheduler.test.ts); then the webhook delivery loop itself,
 * `webhooks.deliver`: a server with WEBHOOK_WORKER on and a second scheduler of the server's jobs on the
 * same database (its own pool on PostgreSQL) deliver through one loop, and the survivor delivers once
 * the holder has stopped.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDb, type DbHandle } from '../../db/client';
import { isPg } from '../../db/dialect';
import { jobLeases, webhookAttempts, webhookMessages } from '../../db/schema';
import { createEndpoint } from '../domain/webhooks';
import { announce } from '../events/record';
import { createScheduler, WEBHOOK_DELIVERY } from '../jobs';
import { Scheduler, type Service } from '../scheduler/scheduler';
import { WebhookWorker } from '../webhooks/worker';
import { newClinic, startServer, uniqueName } from './helpers';
import { ownDatabaseUrl } from './support/own-database';

const LEASE_MS = 30_000;
const T0 = Date.parse('2030-05-06T10:00:00.000Z');

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

/** A service that records its starts and stops; `stop()` resolves only once `drained` is called when `slow`. */
function recordingService() {
  const log: string[] = [];
  let slow = false;
  let drain = () => undefined as void;
  const service: Service & { log: string[]; running: boolean; slowStop(): () => void } = {
    log,
    running: false,
    start() {
      log.push('start');
      service.running = true;
    },
    async stop() {
      log.push('stop');
      if (slow) await new Promise<void>((r) => (drain = r));
      service.running = false;
    },
    slowStop() {
      slow = true;
      return () => drain();
    },
  };
  return service;
}

function pair(at: () => number) {
  const name = uniqueName('continuous');
  const errors: unknown[] = [];
  const make = (db: DbHandle, by: string) => {
    const service = recordingService();
    const scheduler = new Scheduler(db, [{ name, continuous: service }], {
      holder: `${by}-${uniqueName()}`,
      now: at,
      continuousLeaseMs: LEASE_MS,
      onError: (err) => errors.push(err),
    });
    return { service, scheduler };
  };
  return { name, a: make(dbA, 'a'), b: make(dbB, 'b'), errors };
}

const leaseOf = async (name: string) => (await dbA.db.select().from(jobLeases).where(eq(jobLeases.name, name)))[0];

describe('a continuous job runs in exactly one process', () => {
  test('two schedulers keeping it together: one starts the service and holds the lease; the other does not', async () => {
    const { name, a, b, errors } = pair(() => T0);
    await Promise.all([a.scheduler.keep(), b.scheduler.keep(), a.scheduler.tick(), b.scheduler.tick()]);
    const holders = [a, b].filter((s) => s.service.running);
    expect(holders).toHaveLength(1);
    expect(holders[0].service.log).toEqual(['start']);
    expect([a, b].find((s) => !s.service.running)!.service.log).toEqual([]);
    expect(await leaseOf(name)).toMatchObject({
      holder: holders[0].scheduler.holder,
      expires_at: new Date(T0 + LEASE_MS).toISOString(),
    });
    expect(holders[0].scheduler.holding).toEqual([name]);
    expect(errors).toEqual([]);
    await Promise.all([a.scheduler.stop(), b.scheduler.stop()]);
  });

  test('each keep renews the lease: the other cannot take it while the holder keeps it, however long', async () => {
    let now = T0;
    const { name, a, b } = pair(() => now);
    await a.scheduler.keep();
    for (let i = 1; i <= 6; i++) {
      now = T0 + i * 10_000;
      await a.scheduler.tick();
      await b.scheduler.keep();
    }
    expect(await leaseOf(name)).toMatchObject({
      holder: a.scheduler.holder,
      expires_at: new Date(now + LEASE_MS).toISOString(),
    });
    expect(a.service.log).toEqual(['start']);
    expect(b.service.log).toEqual([]);
    await Promise.all([a.scheduler.stop(), b.scheduler.stop()]);
  });

  test('the holder stops: its service drains before stop() resolves, the lease is given back, and the other takes over at once', async () => {
    const now = T0;
    const { name, a, b } = pair(() => now);
    await a.scheduler.keep();
    const drained = a.service.slowStop();
    let stopped = false;
    const stopping = a.scheduler.stop().then(() => (stopped = true));
    while (!a.service.log.includes('stop')) await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false);
    drained();
    await stopping;
    expect(a.service.log).toEqual(['start', 'stop']);
    // Given back well before it would have expired: no wait for the lease.
    expect(await leaseOf(name)).toMatchObject({ holder: null });
    await b.scheduler.keep();
    expect(b.service.log).toEqual(['start']);
    expect(await leaseOf(name)).toMatchObject({ holder: b.scheduler.holder });
    await b.scheduler.stop();
    expect(b.service.log).toEqual(['start', 'stop']);
  });

  test('a holder that stops renewing (stalled or dead) is replaced once its lease expires; coming back it stops its service', async () => {
    let now = T0;
    const { name, a, b } = pair(() => now);
    await a.scheduler.keep();
    now = T0 + LEASE_MS - 1;
    await b.scheduler.keep();
    expect(b.service.log).toEqual([]);
    now = T0 + LEASE_MS;
    await b.scheduler.keep();
    expect(b.service.log).toEqual(['start']);
    expect(await leaseOf(name)).toMatchObject({ holder: b.scheduler.holder });
    // The stalled holder's renewal fails: it stops delivering and leaves the lease to its successor.
    await a.scheduler.keep();
    expect(a.service.log).toEqual(['start', 'stop']);
    expect(a.scheduler.holding).toEqual([]);
    expect(await leaseOf(name)).toMatchObject({ holder: b.scheduler.holder });
    await a.scheduler.stop();
    expect(await leaseOf(name)).toMatchObject({ holder: b.scheduler.holder });
    await b.scheduler.stop();
  });

  test('start() keeps it on its own timer, without a tick: the service starts; stop() gives it back', async () => {
    const { name, a } = pair(Date.now);
    let started = () => undefined as void;
    const up = new Promise<void>((r) => (started = r));
    const start = a.service.start;
    a.service.start = () => (start(), started());
    a.scheduler.start({ periodic: false });
    await up;
    expect(await leaseOf(name)).toMatchObject({ holder: a.scheduler.holder });
    await a.scheduler.stop();
    expect(a.service.log).toEqual(['start', 'stop']);
    expect(await leaseOf(name)).toMatchObject({ holder: null });
  });
});

describe('the webhook delivery loop, webhooks.deliver', () => {
  const received: string[] = [];
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['webhook-id']));
      res.end('ok');
    });
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

  async function until(check: () => Promise<boolean>, what: string) {
    const end = Date.now() + 20_000;
    while (Date.now() < end) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  const actor = { actor_type: 'system' as const, actor_id: null, actor_name: 'test' };
  const policy = { timeoutMs: 2000, delays: [0, 0, 0], disableAfterMs: 3_600_000, allowPrivate: true };

  test('a server with WEBHOOK_WORKER on and a second scheduler on one database: one runs the delivery loop; when it stops, the other takes over and delivers', async () => {
    // A database of its own: no other file's messages are delivered by these loops.
    const databaseUrl = await ownDatabaseUrl();
    const server = await startServer({ DATABASE_URL: databaseUrl, WEBHOOK_WORKER: 'on', JOBS: 'off' });
    const other = isPg ? await openDb(databaseUrl) : server.app.db;
    const errors: unknown[] = [];
    const second = createScheduler(other, {
      webhooks: new WebhookWorker(other, policy, Date.now, (err) => errors.push(err)),
      onError: (err) => errors.push(err),
    });
    try {
      expect(server.app.jobs.jobs).toContain(WEBHOOK_DELIVERY);
      // The server's scheduler started on its own timer; a round of each after it.
      await server.app.jobs.keep();
      await second.keep();
      expect(server.app.jobs.holding).toEqual([WEBHOOK_DELIVERY]);
      expect(second.holding).toEqual([]);

      const clinic = await newClinic(server);
      const { endpoint } = await createEndpoint(server.app.db, clinic.account, actor, { url, events: 'all' }, true);
      const db = server.app.db.db;
      const message = async (id: number) => {
        await server.app.db.transaction((tx) => announce(tx, clinic.account.id, 'patients.updated', 'patients', id));
        const rows = await db.select().from(webhookMessages).where(eq(webhookMessages.endpoint_id, endpoint.id));
        return rows.sort((x, y) => y.id - x.id)[0];
      };
      const delivered = (id: number) => async () =>
        (await db.select().from(webhookMessages).where(eq(webhookMessages.id, id)))[0]?.status === 'delivered';

      // Nobody drains: the holder's loop delivers.
      const first = await message(1);
      await until(delivered(first.id), "the holder's delivery");
      expect(received).toEqual([first.event_id]);

      // The holder stops (as on SIGTERM): the lease is given back, the second takes it at its next round.
      await server.app.jobs.stop();
      expect(server.app.jobs.holding).toEqual([]);
      const [lease] = await db.select().from(jobLeases).where(eq(jobLeases.name, WEBHOOK_DELIVERY));
      expect(lease.holder).toBeNull();
      const next = await message(2);
      await second.keep();
      expect(second.holding).toEqual([WEBHOOK_DELIVERY]);
      await until(delivered(next.id), "the successor's delivery");
      expect(received).toEqual([first.event_id, next.event_id]);
      const attempts = await db
        .select()
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.message_id, [first.id, next.id]));
      expect(attempts).toHaveLength(2);
    } finally {
      await second.stop();
      if (isPg) await other.close();
      await server.close();
    }
    expect(errors).toEqual([]);
  }, 60_000);

  test('WEBHOOK_WORKER=off: the server never runs the delivery loop, however it ticks; a message waits for a worker', async () => {
    const databaseUrl = await ownDatabaseUrl();
    const server = await startServer({ DATABASE_URL: databaseUrl, WEBHOOK_WORKER: 'off' });
    try {
      expect(server.app.jobs.jobs).not.toContain(WEBHOOK_DELIVERY);
      const clinic = await newClinic(server);
      const { endpoint } = await createEndpoint(server.app.db, clinic.account, actor, { url, events: 'all' }, true);
      await server.app.db.transaction((tx) => announce(tx, clinic.account.id, 'patients.updated', 'patients', 1));
      await server.app.jobs.tick();
      await server.app.jobs.keep();
      expect(server.app.jobs.holding).toEqual([]);
      expect(await server.app.db.db.select().from(jobLeases).where(eq(jobLeases.name, WEBHOOK_DELIVERY))).toEqual([]);
      // Nothing claimed it: no lease on the message, no attempt (what a delivery records first).
      const [m] = await server.app.db.db
        .select()
        .from(webhookMessages)
        .where(eq(webhookMessages.endpoint_id, endpoint.id));
      expect(m).toMatchObject({ status: 'pending', attempts: 0, lease_until: null });
      // A worker delivers it, as `clinic worker` would.
      expect(await server.app.webhooks.drain()).toBe(1);
    } finally {
      await server.close();
    }
  });
});
