/**
 * The retention sweeps, driven through the app's own scheduler (`app.jobs.tick()`) on the test's clock,
 * on a database of its own (the sweeps are global: a clock a year ahead would reach other files' rows).
 * Two clinics write through the API (patients created and deleted, an Idempotency-Key) and receive
 * webhooks (delivered, failed, held); the clock then moves past each retention and the database shows
 * what went and what stayed. Retention is global: each clinic's rows go by their own age alone.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, count, eq, lt } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '../../db/client';
import {
  events,
  idempotencyKeys,
  jobLeases,
  oauthClients,
  oauthCodes,
  oauthGrants,
  oauthTokens,
  requestLog,
  webhookAttempts,
  webhookMessages,
} from '../../db/schema';
import { createEndpoint, setEndpointEnabled } from '../domain/webhooks';
import { expiredDeletionsBatch, expiredEventsBatch, sweepEvents } from '../events/sweep';
import { expiredCodesBatch, expiredTokensBatch } from '../oauth/sweep';
import { expiredKeysBatch } from '../rest/idempotency-sweep';
import { expiredAttemptsBatch, expiredMessagesBatch } from '../webhooks/sweep';
import { cutoffOf, setSweepPace } from '../scheduler/sweep-batches';
import {
  client,
  newClinic,
  startServer,
  uniqueName,
  type Api,
  type Clinic,
  type TestServer,
  storedIdempotencyKey,
} from './helpers';
import { ownDatabaseUrl } from './support/own-database';
import { planOf } from './support/plans';

const DAY = 86_400_000;
const actor = { actor_type: 'system' as const, actor_id: null, actor_name: 'test' };

/** The server's clock: the start of the file moved ahead, standing still otherwise (stored idempotent
 * responses are stamped with real time, which stays within seconds of it). */
const T0 = Date.now();
let ahead = 0;
const now = () => T0 + ahead;
let server: TestServer;
const db = () => server.app.db;

/** A receiver answering 200 on /ok and 503 elsewhere. */
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.statusCode = req.url === '/ok' ? 200 : 503;
    res.end();
  });
});
let base = '';

interface Side {
  clinic: Clinic;
  api: Api;
}
const A = {} as Side;
const B = {} as Side;

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // One retry at once, then failed; jobs ticked by hand.
  server = await startServer(
    { DATABASE_URL: await ownDatabaseUrl(), JOBS: 'off', WEBHOOK_RETRY_DELAYS: '0', WEBHOOK_TIMEOUT_MS: '2000' },
    { now },
  );
  for (const side of [A, B]) {
    side.clinic = await newClinic(server);
    side.api = client(server, side.clinic);
  }
}, 60_000);
afterAll(async () => {
  await server?.close();
  await new Promise<void>((r) => receiver.close(() => r()));
});
afterEach(() => setSweepPace(null));

const newPatient = async (side: Side, headers: Record<string, string> = {}) => {
  const res = await side.api.post('/patients', {
    body: { first_name: 'Ada', last_name: uniqueName('Sweep') },
    headers,
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as number;
};
const deletePatient = async (side: Side) => {
  const id = await newPatient(side);
  expect((await side.api.delete(`/patients/${id}`)).status).toBe(204);
  return id;
};
const eventsOf = async (side: Side, entityId: number) =>
  (
    await db()
      .db.select({ type: events.type })
      .from(events)
      .where(and(eq(events.account_id, side.clinic.account.id), eq(events.entity_id, entityId)))
  ).map((e) => e.type);
const listedDeleted = async (side: Side, id: number) =>
  (await side.api.get(`/deleted_entities?entity=patients&entity_id=${id}`)).body.data.length;
const messagesOf = (endpointId: number) =>
  db().db.select().from(webhookMessages).where(eq(webhookMessages.endpoint_id, endpointId));
const attemptsOf = (endpointId: number) =>
  db().db.select().from(webhookAttempts).where(eq(webhookAttempts.endpoint_id, endpointId));
const keyRow = async (side: Side, key: string) =>
  db()
    .db.select()
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.account_id, side.clinic.account.id),
        eq(idempotencyKeys.key, await storedIdempotencyKey(server, side.clinic, key)),
      ),
    );
/** Ticks until no sweep asks to run again (each tick runs what is due; the scheduler's clock stands still). */
async function tickUntilSettled(): Promise<string[][]> {
  const rounds: string[][] = [];
  for (let ran = await server.app.jobs.tick(); ran.length; ran = await server.app.jobs.tick()) rounds.push(ran);
  return rounds;
}
const expiredEvents = async () =>
  (
    await db()
      .db.select({ n: count() })
      .from(events)
      .where(lt(events.occurred_at, cutoffOf(now(), 30)))
  )[0].n;

describe('retention sweeps (jobs of the scheduler, on its clock)', () => {
  /** What each clinic wrote on day 0 and on day 20. */
  const day0 = { A: {} as Record<string, number>, B: {} as Record<string, number> };
  const day20 = { A: {} as Record<string, number>, B: {} as Record<string, number> };
  const hooks = {} as Record<'ok' | 'down' | 'held' | 'okB', number>;
  const key = uniqueName('idem');
  let heldDay0 = 0;

  test('set-up: two clinics write, delete and receive webhooks on day 0 and on day 20', async () => {
    hooks.ok = (
      await createEndpoint(db(), A.clinic.account, actor, { url: `${base}/ok`, events: 'all' }, true)
    ).endpoint.id;
    hooks.down = (
      await createEndpoint(db(), A.clinic.account, actor, { url: `${base}/down`, events: 'all' }, true)
    ).endpoint.id;
    hooks.held = (
      await createEndpoint(db(), A.clinic.account, actor, { url: `${base}/ok`, events: 'all' }, true)
    ).endpoint.id;
    hooks.okB = (
      await createEndpoint(db(), B.clinic.account, actor, { url: `${base}/ok`, events: 'all' }, true)
    ).endpoint.id;
    // Disabled: its messages are held, pending, until it is enabled again.
    await setEndpointEnabled(db(), A.clinic.account, actor, hooks.held, false);

    for (const [side, name] of [
      [A, 'A'],
      [B, 'B'],
    ] as const) {
      day0[name].patient = await newPatient(side, name === 'A' ? { 'Idempotency-Key': key } : {});
      day0[name].deleted = await deletePatient(side);
    }
    await server.app.webhooks.drain();
    expect(new Set((await messagesOf(hooks.ok)).map((m) => m.status))).toEqual(new Set(['delivered']));
    expect(new Set((await messagesOf(hooks.down)).map((m) => m.status))).toEqual(new Set(['failed']));
    expect(new Set((await messagesOf(hooks.held)).map((m) => m.status))).toEqual(new Set(['pending']));
    expect(new Set((await messagesOf(hooks.okB)).map((m) => m.status))).toEqual(new Set(['delivered']));
    expect(await keyRow(A, key)).toHaveLength(1);
    heldDay0 = (await messagesOf(hooks.held)).length;
    expect(heldDay0).toBeGreaterThan(0);

    ahead = 20 * DAY;
    for (const [side, name] of [
      [A, 'A'],
      [B, 'B'],
    ] as const) {
      day20[name].patient = await newPatient(side);
      day20[name].deleted = await deletePatient(side);
    }
    await server.app.webhooks.drain();
    await server.app.requestLog.flush();
  });

  test('day 23 hours: nothing is old enough; the stored idempotent response is still inside its 24 hours', async () => {
    // The key was stamped with real time (ahead 0): move the clock back to just inside its window.
    ahead = 23 * 3_600_000;
    const beforeEvents = (await db().db.select({ n: count() }).from(events))[0].n;
    await tickUntilSettled();
    expect(await keyRow(A, key)).toHaveLength(1);
    expect((await db().db.select({ n: count() }).from(events))[0].n).toBe(beforeEvents);
  });

  test('day 31: events, settled messages and attempts of day 0 go in both clinics; day 20 stays; the held (pending) message stays; the idempotent response goes', async () => {
    ahead = 31 * DAY;
    const rounds = await tickUntilSettled();
    expect(rounds[0]).toEqual(
      expect.arrayContaining([
        'sweep.events',
        'sweep.webhook_messages',
        'sweep.webhook_attempts',
        'sweep.deleted_entities',
        'sweep.idempotency_keys',
      ]),
    );

    for (const name of ['A', 'B'] as const) {
      const side = name === 'A' ? A : B;
      expect(await eventsOf(side, day0[name].patient)).toEqual([]);
      expect(await eventsOf(side, day0[name].deleted)).toEqual([]);
      expect(await eventsOf(side, day20[name].patient)).toEqual(['patients.created']);
      // Deletions are listed a year: day 0's is still there.
      expect(await listedDeleted(side, day0[name].deleted)).toBe(1);
      expect(await listedDeleted(side, day20[name].deleted)).toBe(1);
    }
    const createdAt = (rows: { created_at: string }[]) => rows.map((r) => r.created_at);
    const day20Start = new Date(T0 + 20 * DAY - 60_000).toISOString();
    // Delivered (A and B) and failed: only day 20's messages and attempts are left.
    for (const id of [hooks.ok, hooks.down, hooks.okB]) {
      const left = await messagesOf(id);
      expect(left.length, `endpoint ${id}`).toBeGreaterThan(0);
      for (const at of createdAt(left)) expect(at > day20Start).toBe(true);
      for (const at of createdAt(await attemptsOf(id))) expect(at > day20Start).toBe(true);
    }
    // The held endpoint's messages of day 0 are pending: a delivery still owed is never swept.
    const held = await messagesOf(hooks.held);
    expect(held.filter((m) => m.created_at < day20Start).length).toBe(heldDay0);
    expect(new Set(held.map((m) => m.status))).toEqual(new Set(['pending']));
    expect(await keyRow(A, key)).toEqual([]);
  });

  test('day 100: the request log keeps 90 days: day 0 requests go in both clinics, day 20 ones stay', async () => {
    const daysLogged = async (side: Side) =>
      [
        ...new Set(
          (
            await db()
              .db.select({ at: requestLog.created_at })
              .from(requestLog)
              .where(eq(requestLog.account_id, side.clinic.account.id))
          ).map((r) => Math.floor((Date.parse(r.at) - T0) / DAY)),
        ),
      ].sort((a, b) => a - b);
    // Day 31's reads above are logged too: day 0, 20 and 31.
    await server.app.requestLog.flush();
    expect(await daysLogged(A)).toEqual([0, 20, 31]);
    expect(await daysLogged(B)).toEqual([0, 20, 31]);
    ahead = 100 * DAY;
    const rounds = await tickUntilSettled();
    expect(rounds[0]).toContain('sweep.request_log');
    expect(await daysLogged(A)).toEqual([20, 31]);
    expect(await daysLogged(B)).toEqual([20, 31]);
  });

  test('day 366: day 0 deletions leave GET /deleted_entities in both clinics, day 20 ones stay; held messages still stay', async () => {
    ahead = 366 * DAY;
    await tickUntilSettled();
    for (const name of ['A', 'B'] as const) {
      const side = name === 'A' ? A : B;
      expect(await listedDeleted(side, day0[name].deleted)).toBe(0);
      expect(await listedDeleted(side, day20[name].deleted)).toBe(1);
    }
    expect(
      (await messagesOf(hooks.held)).filter((m) => m.created_at < new Date(T0 + 20 * DAY - 60_000).toISOString())
        .length,
    ).toBe(heldDay0);
    expect(await messagesOf(hooks.ok)).toEqual([]);
  });
});

describe('a run stops at its bound and the next tick continues', () => {
  test('4 rows per run, 2 per batch: each tick deletes 4 expired events and asks to come back, until none is left', async () => {
    for (let i = 0; i < 5; i++) await newPatient(i % 2 ? A : B);
    ahead += 31 * DAY;
    setSweepPace({ batch: 2, rowsPerRun: 4, pauseFactor: 0, batchMs: 0 });
    const expired = await expiredEvents();
    expect(expired).toBeGreaterThanOrEqual(5);
    const ticks = Math.ceil((expired + 1) / 4);

    let left = expired;
    for (let i = 1; i <= ticks; i++) {
      const ran = await server.app.jobs.tick();
      expect(ran, `tick ${i}`).toContain('sweep.events');
      left = Math.max(0, left - 4);
      expect(await expiredEvents(), `tick ${i}`).toBe(left);
      // Stopped at its bound: due again at once (the scheduler comes back at its next tick); done: due in an hour.
      const [lease] = await db().db.select().from(jobLeases).where(eq(jobLeases.name, 'sweep.events'));
      expect(Date.parse(lease.due_at), `tick ${i}`).toBe(i < ticks ? now() : now() + 3_600_000);
    }
    expect(await server.app.jobs.tick()).not.toContain('sweep.events');
  });

  test('a lost lease stops the run after the batch it committed; the next run deletes the rest (idempotent)', async () => {
    for (let i = 0; i < 3; i++) await newPatient(A);
    ahead += 31 * DAY;
    setSweepPace({ batch: 2, rowsPerRun: 1000, pauseFactor: 0, batchMs: 0 });
    const expired = await expiredEvents();
    const lost = await sweepEvents(db(), now(), { now, renew: async () => false });
    expect(lost).toEqual({ deleted: 2, again: true });
    expect(await expiredEvents()).toBe(expired - 2);
    expect(await sweepEvents(db(), now())).toEqual({ deleted: expired - 2, again: false });
    expect(await expiredEvents()).toBe(0);
  });

  test('sweep.oauth: one bound across its tables (4 rows per run, 2 per batch): tokens first, then their grant, its code and its client, over two ticks', async () => {
    ahead += 31 * DAY;
    setSweepPace({ batch: 2, rowsPerRun: 4, pauseFactor: 0, batchMs: 0 });
    const account_id = A.clinic.account.id;
    const ago = (days: number) => new Date(now() - days * DAY).toISOString();
    const client_id = uniqueName('app');
    await db().transaction(async (tx) => {
      await tx.insert(oauthClients).values({
        account_id,
        client_id,
        name: 'Old app',
        redirect_uris: ['https://app.example/cb'],
        token_endpoint_auth_method: 'none',
        kind: 'registered',
        expires_at: null,
        created_at: ago(40),
        secret_hash: null,
      });
      const [grant] = await tx
        .insert(oauthGrants)
        .values({
          account_id,
          client_id,
          user_id: 1,
          scope: 'mcp:read',
          resource: 'https://mcp.example',
          created_at: ago(40),
          revoked_at: null,
          revoked_reason: null,
        })
        .returning({ id: oauthGrants.id });
      await tx.insert(oauthTokens).values(
        Array.from({ length: 5 }, (_, i) => ({
          account_id,
          grant_id: grant.id,
          kind: 'access' as const,
          token_hash: uniqueName(`tok${i}`),
          expires_at: ago(39 - i),
          created_at: ago(39 - i),
        })),
      );
      await tx.insert(oauthCodes).values({
        account_id,
        grant_id: grant.id,
        code_hash: uniqueName('code'),
        redirect_uri: 'https://app.example/cb',
        code_challenge: 'c',
        expires_at: ago(40),
      });
    });
    const left = async () => ({
      tokens: (await db().db.select({ n: count() }).from(oauthTokens).where(eq(oauthTokens.account_id, account_id)))[0]
        .n,
      grants: (await db().db.select({ n: count() }).from(oauthGrants).where(eq(oauthGrants.account_id, account_id)))[0]
        .n,
      codes: (await db().db.select({ n: count() }).from(oauthCodes).where(eq(oauthCodes.account_id, account_id)))[0].n,
      clients: (
        await db().db.select({ n: count() }).from(oauthClients).where(eq(oauthClients.account_id, account_id))
      )[0].n,
    });
    const dueAt = async () =>
      Date.parse((await db().db.select().from(jobLeases).where(eq(jobLeases.name, 'sweep.oauth')))[0].due_at);

    expect(await server.app.jobs.tick()).toContain('sweep.oauth');
    // The bound reached on tokens: the grant (a token still left) and the rest wait for the next run, due at once.
    expect(await left()).toEqual({ tokens: 1, grants: 1, codes: 1, clients: 1 });
    expect(await dueAt()).toBe(now());

    expect(await server.app.jobs.tick()).toContain('sweep.oauth');
    expect(await left()).toEqual({ tokens: 0, grants: 0, codes: 0, clients: 0 });
    expect(await dueAt()).toBe(now() + 3_600_000);
    expect(await server.app.jobs.tick()).not.toContain('sweep.oauth');
  });
});

describe('each batch is served by an index on the time column', () => {
  const cases = [
    ['events', 'events', expiredEventsBatch, 'events_sweep_idx'],
    ['deleted_entities', 'deleted_entities', expiredDeletionsBatch, 'deleted_entities_sweep_idx'],
    ['webhook_attempts', 'webhook_attempts', expiredAttemptsBatch, 'webhook_attempts_created_idx'],
    [
      'webhook_messages delivered',
      'webhook_messages',
      (tx: Db, at: number, n: number) => expiredMessagesBatch(tx, at, n, 'delivered'),
      'webhook_messages_sweep_idx',
    ],
    [
      'webhook_messages failed',
      'webhook_messages',
      (tx: Db, at: number, n: number) => expiredMessagesBatch(tx, at, n, 'failed'),
      'webhook_messages_sweep_idx',
    ],
    ['idempotency_keys', 'idempotency_keys', expiredKeysBatch, 'idempotency_keys_sweep_idx'],
    ['oauth_tokens', 'oauth_tokens', expiredTokensBatch, 'oauth_tokens_expires_idx'],
    ['oauth_codes', 'oauth_codes', expiredCodesBatch, 'oauth_codes_expires_idx'],
  ] as const;
  test.each(cases)('%s', async (_label, table, batch, index) => {
    const plan = await planOf(server, batch(db().db, now(), 5000).toSQL(), table);
    expect(plan, plan).toContain(index);
  });
});
