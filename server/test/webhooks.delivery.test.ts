/**
 * Webhook delivery end to end: a receiver on loopback verifies every request with the standardwebhooks
 * package, as an integrator would. The server's worker is drained by the test (retry delays of 0 s).
 * Then delivery workers as separate processes (`clinic worker`): on PostgreSQL two of them share 1,000
 * events and attempt none twice; one killed with SIGKILL mid-delivery leaves leases that expire, and a
 * new worker delivers exactly what was not acknowledged. One file, so that no spawned worker ever claims
 * the messages another test drains; on SQLite the workers also get a database file of their own.
 */
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, inArray } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isPg } from '../../db/dialect';
import { auditLog, webhookAttempts, webhookEndpoints, webhookMessages } from '../../db/schema';
import {
  createEndpoint,
  recoverSince,
  replayEvent,
  rotateSecret,
  sendTestEvent,
  setEndpointEnabled,
  type EndpointInput,
} from '../domain/webhooks';
import { announce } from '../events/record';
import { BlockedTarget, blockedAddress, resolveTarget } from '../outbound';
import { newClinic, request, startServer, useClinic, type Clinic, type TestServer } from './helpers';
import { spawnClinic } from './support/cli';
import { ownDatabaseUrl, removeOwnSqlite } from './support/own-database';
import { portalData, signedIn } from './support/portal';

/** The server's clock runs with real time, moved ahead by `ahead` (messages are stamped with real time). */
let ahead = 0;
const t = useClinic({
  env: { WEBHOOK_RETRY_DELAYS: '0,0,0', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_DISABLE_AFTER: '1h' },
  now: () => Date.now() + ahead,
});
const actor = { actor_type: 'system' as const, actor_id: null, actor_name: 'test' };

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver whose answers are queued per path: [status, delay ms, headers]; 200 at once when the queue is empty. */
const received = new Map<string, Received[]>();
const answers = new Map<string, [number, number, Record<string, string>?][]>();
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const path = req.url ?? '/';
    received.set(path, [
      ...(received.get(path) ?? []),
      { headers: req.headers, body: Buffer.concat(chunks).toString() },
    ]);
    const [status, delay, headers] = answers.get(path)?.shift() ?? [200, 0];
    setTimeout(() => {
      res.statusCode = status;
      for (const [k, v] of Object.entries(headers ?? {})) res.setHeader(k, v);
      res.end(`answer ${status}`);
    }, delay).unref();
  });
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

let n = 0;
/** An endpoint on its own path of the receiver, and its secret. */
async function endpoint(clinic: Clinic = t.clinic, events: EndpointInput['events'] = 'all') {
  const path = `/hook${++n}`;
  const { endpoint, secret } = await createEndpoint(
    t.server.app.db,
    clinic.account,
    actor,
    { url: `${base}${path}`, events },
    true,
  );
  return { id: endpoint.id, secret, path, got: () => received.get(path) ?? [] };
}

const verify = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });

const drain = () => t.server.app.webhooks.drain();
const messagesOf = (endpointId: number) =>
  t.server.app.db.db.select().from(webhookMessages).where(eq(webhookMessages.endpoint_id, endpointId));
const attemptsOf = (endpointId: number) =>
  t.server.app.db.db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.endpoint_id, endpointId))
    .orderBy(webhookAttempts.id);

describe('delivery', () => {
  test('a patient created over REST arrives as patients.created: signed, thin, with the Standard Webhooks headers', async () => {
    const clinic = await newClinic(t.server);
    const hook = await endpoint(clinic);
    const res = await request(t.server, 'POST', '/patients', {
      host: clinic.host,
      key: clinic.key,
      body: { first_name: 'Ada', last_name: 'Hook' },
    });
    expect(res.status).toBe(201);
    await drain();
    const got = hook.got();
    const patientEvents = got
      .map((r) => verify(hook.secret, r) as { type: string; data: { entity: string; id: number } })
      .filter((p) => p.data.id === res.body.data.id);
    expect(patientEvents.map((p) => p.type)).toEqual(['patients.created']);
    const one = got.find((r) => JSON.parse(r.body).data.id === res.body.data.id)!;
    const payload = JSON.parse(one.body);
    expect(Object.keys(payload).sort()).toEqual(['data', 'id', 'occurred_at', 'type']);
    expect(payload.data).toEqual({ entity: 'patients', id: res.body.data.id });
    expect(one.headers['webhook-id']).toBe(payload.id);
    expect(one.headers['content-type']).toBe('application/json');
    expect(one.headers['user-agent']).toMatch(/ClinicAPI-Webhooks/);
    expect(Math.abs(Number(one.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
  });

  test('500, 500, then 200: delivered on the third attempt with the same webhook-id; every attempt recorded', async () => {
    const hook = await endpoint();
    answers.set(hook.path, [
      [500, 0],
      [500, 0],
    ]);
    await sendTestEvent(t.server.app.db, t.clinic.account, actor, hook.id);
    await drain();
    const got = hook.got();
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const [message] = await messagesOf(hook.id);
    expect(message).toMatchObject({ status: 'delivered', attempts: 3, last_status: 200 });
    const attempts = await attemptsOf(hook.id);
    expect(attempts.map((a) => a.status_code)).toEqual([500, 500, 200]);
    expect(attempts.every((a) => a.trigger === 'test')).toBe(true);
    expect(attempts[0].response_body).toBe('answer 500');
  });

  test('after the last scheduled attempt the message is failed', async () => {
    const hook = await endpoint();
    answers.set(hook.path, [
      [503, 0],
      [503, 0],
      [503, 0],
    ]);
    await sendTestEvent(t.server.app.db, t.clinic.account, actor, hook.id);
    await drain();
    const [message] = await messagesOf(hook.id);
    expect(message).toMatchObject({ status: 'failed', attempts: 3, next_attempt_at: null });
  });

  test('410 Gone disables the endpoint at once, with an activity-log entry', async () => {
    const hook = await endpoint();
    answers.set(hook.path, [[410, 0]]);
    await sendTestEvent(t.server.app.db, t.clinic.account, actor, hook.id);
    await drain();
    expect(hook.got()).toHaveLength(1);
    const [row] = await t.server.app.db.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, hook.id));
    expect(row).toMatchObject({ enabled: false, disabled_reason: 'The endpoint answered 410 Gone' });
    const log = await t.server.app.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'webhook_endpoints'), eq(auditLog.entity_id, hook.id)));
    expect(log.map((l) => l.action)).toContain('disabled');
  });

  test('429 with Retry-After: the next attempt waits as long as the receiver asked', async () => {
    const hook = await endpoint();
    answers.set(hook.path, [[429, 0, { 'retry-after': '120' }]]);
    await sendTestEvent(t.server.app.db, t.clinic.account, actor, hook.id);
    await drain();
    const [message] = await messagesOf(hook.id);
    expect(message.status).toBe('pending');
    expect(Date.parse(message.next_attempt_at!) - Date.now()).toBeGreaterThanOrEqual(118_000);
    expect(Date.parse(message.next_attempt_at!) - Date.now()).toBeLessThanOrEqual(121_000);
  });

  test('an endpoint whose deliveries all failed for WEBHOOK_DISABLE_AFTER is disabled; a success in between resets the streak', async () => {
    const hook = await endpoint();
    const fail = (n: number) =>
      answers.set(
        hook.path,
        Array.from({ length: n }, () => [500, 0] as [number, number]),
      );
    fail(3);
    await sendTestEvent(t.server.app.db, t.clinic.account, actor, hook.id);
    await drain();
    const state = async () =>
      (await t.server.app.db.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, hook.id)))[0];
    expect((await state()).failing_since).not.toBeNull();
    ahead += 30 * 60_000;
    await sendTestEvent(t.server.app.db, t.clinic.account, actor, hook.id);
    await drain();
    expect((await state()).failing_since).toBeNull();
    fail(3);
    await sendTestEvent(t.server.app.db, t.clinic.account, actor, hook.id);
    await drain();
    ahead += 61 * 60_000;
    fail(3);
    await sendTestEvent(t.server.app.db, t.clinic.account, actor, hook.id);
    await drain();
    expect(await state()).toMatchObject({
      enabled: false,
      disabled_reason: expect.stringMatching(/^Every delivery failed since/),
    });
    // Back to real time: receivers refuse signatures stamped more than five minutes away.
    ahead = 0;
  });

  test('a receiver slower than WEBHOOK_TIMEOUT_MS: the attempt is a timeout, and it is retried', async () => {
    const hook = await endpoint();
    answers.set(hook.path, [[200, 2500]]);
    await sendTestEvent(t.server.app.db, t.clinic.account, actor, hook.id);
    await drain();
    const attempts = await attemptsOf(hook.id);
    expect(attempts[0]).toMatchObject({ status_code: null, error: 'timeout' });
    expect(attempts[0].duration_ms).toBeGreaterThanOrEqual(950);
    expect(attempts.at(-1)!.status_code).toBe(200);
  });

  test('an endpoint subscribed to some types gets only those', async () => {
    const clinic = await newClinic(t.server);
    const hook = await endpoint(clinic, ['appointments.created']);
    const res = await request(t.server, 'POST', '/patients', {
      host: clinic.host,
      key: clinic.key,
      body: { first_name: 'Not', last_name: 'Sent' },
    });
    expect(res.status).toBe(201);
    await drain();
    expect(hook.got()).toHaveLength(0);
    expect(await messagesOf(hook.id)).toHaveLength(0);
  });
});

describe('secrets, replay, recovery', () => {
  test('during a rotation both the previous and the new secret verify each message', async () => {
    const hook = await endpoint();
    const { secret: fresh } = await rotateSecret(t.server.app.db, t.clinic.account, actor, hook.id);
    await sendTestEvent(t.server.app.db, t.clinic.account, actor, hook.id);
    await drain();
    const [r] = hook.got();
    expect(String(r.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(hook.secret, r)).toBeTruthy();
    expect(verify(fresh, r)).toBeTruthy();
    expect(fresh).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  });

  test('a rotation chosen to stop the previous secret now (portal, as the page sends it) signs with the new one alone; 1 hour keeps both that long', async () => {
    const hook = await endpoint();
    const { portal } = await signedIn(t.server, t.clinic, 'owner');
    const now = await portal.mutate('webhooks.rotate', { id: hook.id, grace: 'now' });
    expect(now.status, now.text).toBe(200);
    const fresh = portalData(now).secret as string;
    expect(portalData(now).previous_valid_until).toBeNull();
    await sendTestEvent(t.server.app.db, t.clinic.account, actor, hook.id);
    await drain();
    const [r] = hook.got();
    expect(String(r.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(fresh, r)).toBeTruthy();
    expect(() => verify(hook.secret, r)).toThrow();

    const hour = await portal.mutate('webhooks.rotate', { id: hook.id, grace: '1h' });
    const until = Date.parse(portalData(hour).previous_valid_until);
    expect(until - Date.now()).toBeGreaterThan(3_590_000);
    expect(until - Date.now()).toBeLessThanOrEqual(3_600_000);
    await sendTestEvent(t.server.app.db, t.clinic.account, actor, hook.id);
    await drain();
    const [, second] = hook.got();
    expect(verify(fresh, second)).toBeTruthy();
    expect(verify(portalData(hour).secret, second)).toBeTruthy();
    const refused = await portal.mutate('webhooks.rotate', { id: hook.id, grace: '2d' });
    expect(refused.status).toBe(422);
  });

  test('replay sends a delivered message again, with the same webhook-id', async () => {
    const hook = await endpoint();
    const { event_id } = await sendTestEvent(t.server.app.db, t.clinic.account, actor, hook.id);
    await drain();
    await replayEvent(t.server.app.db, t.clinic.account, actor, event_id, hook.id);
    await drain();
    expect(hook.got().map((r) => r.headers['webhook-id'])).toEqual([event_id, event_id]);
  });

  test('recover queues the failed messages since a time again', async () => {
    const hook = await endpoint();
    answers.set(hook.path, [
      [500, 0],
      [500, 0],
      [500, 0],
    ]);
    const since = new Date(Date.now() - 1000).toISOString();
    await sendTestEvent(t.server.app.db, t.clinic.account, actor, hook.id);
    await drain();
    expect((await messagesOf(hook.id))[0].status).toBe('failed');
    expect(await recoverSince(t.server.app.db, t.clinic.account, actor, hook.id, since)).toEqual({ messages: 1 });
    await drain();
    expect((await messagesOf(hook.id))[0].status).toBe('delivered');
    expect(hook.got()).toHaveLength(4);
  });
});

describe('a disabled endpoint', () => {
  const messages = async (endpointId: number) => (await messagesOf(endpointId)).sort((a, b) => a.id - b.id);
  const setEnabled = (clinic: Clinic, id: number, enabled: boolean) =>
    setEndpointEnabled(t.server.app.db, clinic.account, actor, id, enabled, enabled ? null : 'test');

  test('events while it is disabled are held: never attempted, listed as waiting in the portal; enabling sends them, oldest first', async () => {
    const clinic = await newClinic(t.server);
    const hook = await endpoint(clinic);
    const { portal } = await signedIn(t.server, clinic, 'admin');
    expect((await portal.mutate('webhooks.setEnabled', { id: hook.id, enabled: false })).status).toBe(200);
    const created = await request(t.server, 'POST', '/patients', {
      host: clinic.host,
      key: clinic.key,
      body: { first_name: 'Held', last_name: 'Back' },
    });
    expect(created.status).toBe(201);
    await t.server.app.db.transaction(async (tx) => {
      for (let i = 0; i < 25; i++)
        await announce(tx, clinic.account.id, 'patients.updated', 'patients', created.body.data.id);
    });
    await drain();
    expect(hook.got()).toHaveLength(0);
    const held = await messages(hook.id);
    expect(held).toHaveLength(26);
    expect(held.every((m) => m.status === 'pending' && m.next_attempt_at === null && m.attempts === 0)).toBe(true);
    expect(await attemptsOf(hook.id)).toEqual([]);
    const listed = portalData(await portal.query('webhooks.messages', { id: hook.id })) as {
      status: string;
      next_attempt_at: string | null;
    }[];
    expect(listed.map((m) => [m.status, m.next_attempt_at])).toEqual(held.map(() => ['waiting', null]));

    expect((await portal.mutate('webhooks.setEnabled', { id: hook.id, enabled: true })).status).toBe(200);
    // One round claims fewer than all of them: the ones it claims are the oldest.
    const claimed = await t.server.app.webhooks.tick();
    expect(claimed).toBeGreaterThan(0);
    expect(claimed).toBeLessThan(held.length);
    const firstRound = (await messages(hook.id)).filter((m) => m.attempts > 0).map((m) => m.id);
    expect(firstRound).toEqual(held.slice(0, claimed).map((m) => m.id));
    await drain();
    expect((await messages(hook.id)).map((m) => m.status)).toEqual(held.map(() => 'delivered'));
    expect(
      hook
        .got()
        .map((r) => r.headers['webhook-id'])
        .sort(),
    ).toEqual(held.map((m) => m.event_id).sort());
  });

  test('disabling holds the messages still to be retried; enabling makes them due at once', async () => {
    const clinic = await newClinic(t.server);
    const hook = await endpoint(clinic);
    answers.set(hook.path, [[503, 0, { 'retry-after': '3600' }]]);
    await sendTestEvent(t.server.app.db, clinic.account, actor, hook.id);
    await drain();
    expect((await messages(hook.id))[0]).toMatchObject({ status: 'pending', attempts: 1 });
    await setEnabled(clinic, hook.id, false);
    expect((await messages(hook.id))[0]).toMatchObject({ status: 'pending', next_attempt_at: null });
    await setEnabled(clinic, hook.id, true);
    await drain();
    expect((await messages(hook.id))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(hook.got()).toHaveLength(2);
  });

  test('the worker never attempts a message of an endpoint disabled after the claim: the message is held again', async () => {
    const clinic = await newClinic(t.server);
    const hook = await endpoint(clinic);
    await sendTestEvent(t.server.app.db, clinic.account, actor, hook.id);
    // Claimed as the worker claims (attempt counted, lease taken), then the endpoint is disabled.
    const lease = new Date(Date.now() + 60_000).toISOString();
    const [claimed] = await t.server.app.db.transaction((tx) =>
      tx
        .update(webhookMessages)
        .set({ attempts: 1, lease_until: lease })
        .where(eq(webhookMessages.endpoint_id, hook.id))
        .returning(),
    );
    await setEnabled(clinic, hook.id, false);
    expect(await t.server.app.webhooks.deliver(claimed, 'scheduled')).toBeNull();
    expect(hook.got()).toHaveLength(0);
    expect((await messages(hook.id))[0]).toMatchObject({
      status: 'pending',
      next_attempt_at: null,
      lease_until: null,
      attempts: 0,
    });
    expect(await attemptsOf(hook.id)).toEqual([]);
  });

  test('recovering failed messages of a disabled endpoint holds them until it is enabled', async () => {
    const clinic = await newClinic(t.server);
    const hook = await endpoint(clinic);
    answers.set(hook.path, [
      [500, 0],
      [500, 0],
      [500, 0],
    ]);
    const since = new Date(Date.now() - 1000).toISOString();
    await sendTestEvent(t.server.app.db, clinic.account, actor, hook.id);
    await drain();
    await setEnabled(clinic, hook.id, false);
    expect(await recoverSince(t.server.app.db, clinic.account, actor, hook.id, since)).toEqual({ messages: 1 });
    await drain();
    expect((await messages(hook.id))[0]).toMatchObject({ status: 'pending', next_attempt_at: null });
    expect(hook.got()).toHaveLength(3);
    await setEnabled(clinic, hook.id, true);
    await drain();
    expect((await messages(hook.id))[0].status).toBe('delivered');
    expect(hook.got()).toHaveLength(4);
  });
});

describe('SSRF', () => {
  test('a loopback or plain-http URL is refused with what to do to test on one’s own computer; nothing is made', async () => {
    const actor = { actor_type: 'user' as const, actor_id: null, actor_name: 'test' };
    const before = await t.server.app.db.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.account_id, t.clinic.account.id));
    for (const url of ['https://127.0.0.1:3000/hooks', 'http://example.com/hooks']) {
      const refused = await createEndpoint(
        t.server.app.db,
        t.clinic.account,
        actor,
        { url, events: 'all' },
        false,
      ).then(
        () => null,
        (err: { code?: string; errors?: Record<string, string[]> }) => err,
      );
      expect(refused?.code, url).toBe('invalid_input');
      expect(refused?.errors?.url?.[0], url).toMatch(/https tunnel \(for example `ngrok http 3000`/);
    }
    const after = await t.server.app.db.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.account_id, t.clinic.account.id));
    expect(after.length).toBe(before.length);
  });

  test('every non-public address class is refused', () => {
    for (const address of [
      '127.0.0.1',
      '::1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      'fd00::1',
      'fe80::1',
      '224.0.0.1',
      'ff02::1',
      '0.0.0.0',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ]) {
      expect(blockedAddress(address), address).not.toBeNull();
    }
    for (const address of ['8.8.8.8', '2001:4860:4860::8888', '1.1.1.1'])
      expect(blockedAddress(address), address).toBeNull();
  });

  // Every spelling of a non-public address a URL can carry; the URL parser normalises the IPv4 ones.
  const REFUSED_URLS = [
    'https://127.0.0.1/x',
    'https://2130706433/x', // decimal
    'https://0177.0.0.1/x', // octal
    'https://0x7f.0.0.1/x', // hex
    'https://127.1/x', // short
    'https://0/x',
    'https://169.254.169.254/x',
    'https://0xa9fea9fe/x',
    'https://100.64.0.1/x',
    'https://[::1]/x',
    'https://[::]/x',
    'https://[::127.0.0.1]/x', // IPv4-compatible
    'https://[::a9fe:a9fe]/x', // IPv4-compatible 169.254.169.254
    'https://[0:0:0:0:0:0:10.0.0.1]/x',
    'https://[::ffff:127.0.0.1]/x', // IPv4-mapped
    'https://[::ffff:a9fe:a9fe]/x',
    'https://[::ffff:0:a9fe:a9fe]/x', // IPv4-translated (RFC 6145)
    'https://[64:ff9b::a9fe:a9fe]/x', // NAT64
    'https://[64:ff9b::808:808]/x', // NAT64, even of a public address
    'https://[64:ff9b:1::a00:1]/x', // local-use NAT64
    'https://[2002:a00:1::]/x', // 6to4 of 10.0.0.1
    'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x', // Teredo
    'https://[fd00::1]/x',
    'https://[fe80::1]/x',
    'https://[fe80::1%25eth0]/x', // zone id
    'https://[ff02::1]/x',
    'https://[100::1]/x', // discard
  ];

  test.each(REFUSED_URLS)('%s is refused at creation and at delivery', async (url) => {
    await expect(resolveTarget(url, false)).rejects.toThrow(BlockedTarget);
    await expect(
      createEndpoint(t.server.app.db, t.clinic.account, actor, { url, events: 'all' }, false),
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });

  test('the classifier: only public unicast, with embedded IPv4 judged as IPv4', () => {
    for (const address of [
      '::7f00:1',
      '::a9fe:a9fe',
      '64:ff9b::808:808',
      'fe80::1%eth0',
      '0177.0.0.1',
      '0x7f.1',
      '2130706433',
      '::ffff:0:a00:1',
    ]) {
      expect(blockedAddress(address), address).not.toBeNull();
    }
    // A public IPv4 address stays public in any IPv6 form that only carries it.
    for (const address of ['8.8.8.8', '::ffff:8.8.8.8', '::808:808', '2606:4700::1'])
      expect(blockedAddress(address), address).toBeNull();
  });

  test('without the development flag: only https, and no private target, at creation and at delivery', async () => {
    await expect(resolveTarget('http://example.com/hook', false)).rejects.toThrow(/only https/);
    await expect(resolveTarget('https://127.0.0.1/hook', false)).rejects.toThrow(/non-public/);
    await expect(resolveTarget('https://[::ffff:169.254.169.254]/hook', false)).rejects.toThrow(/non-public/);
    await expect(resolveTarget('https://user:pw@example.com/hook', false)).rejects.toThrow(/credentials/);
    const refused = createEndpoint(
      t.server.app.db,
      t.clinic.account,
      actor,
      { url: 'https://10.0.0.5/hook', events: 'all' },
      false,
    );
    await expect(refused).rejects.toMatchObject({
      code: 'invalid_input',
      errors: { url: [expect.stringMatching(/non-public/)] },
    });
  });
});

describe('worker processes', () => {
  /** Requests to the receiver by webhook-id; `hold` ids are answered only after `holdMs`. */
  const seen = new Map<string, number>();
  let holdFirst = 0;
  let holdMs = 0;
  const workerReceiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      seen.set(id, (seen.get(id) ?? 0) + 1);
      const held = holdFirst > 0 && seen.get(id) === 1 ? (holdFirst--, holdMs) : 0;
      setTimeout(() => res.end('ok'), held).unref();
    });
  });
  let workerUrl = '';
  // On SQLite the suite's files run side by side on one database file, and a test of another file that
  // drains its server's worker claims every due message, these included: the workers here get a file of
  // their own, so what a test counts was delivered by its worker. (PostgreSQL runs one file at a time.)
  const workerEnv: Record<string, string> = {};
  let server: TestServer;
  beforeAll(async () => {
    await new Promise<void>((r) => workerReceiver.listen(0, '127.0.0.1', r));
    workerUrl = `http://127.0.0.1:${(workerReceiver.address() as AddressInfo).port}/hooks`;
    if (!isPg) workerEnv.DATABASE_URL = await ownDatabaseUrl();
    server = isPg ? t.server : await startServer(workerEnv);
  });
  afterAll(async () => {
    await new Promise<void>((r) => workerReceiver.close(() => r()));
    if (isPg) return;
    await server.close();
    removeOwnSqlite(workerEnv.DATABASE_URL);
  });

  function startWorker(env: Record<string, string> = {}, stderr: 'inherit' | 'pipe' = 'inherit'): ChildProcess {
    const vars = { WEBHOOKS_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_DELAYS: '0,1,1,1', LOG_LEVEL: 'silent' };
    return spawnClinic(['worker'], { ...vars, ...workerEnv, ...env }, ['ignore', 'ignore', stderr]);
  }
  const stop = (w: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<void>((r) =>
      w.exitCode !== null || w.signalCode !== null ? r() : (w.once('exit', () => r()), w.kill(signal)),
    );

  async function until(check: () => Promise<boolean>, ms: number, what: string) {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  /** `n` events on a new clinic with one endpoint: the messages' ids. */
  async function eventsFor(n: number) {
    const clinic = await newClinic(server);
    const { endpoint } = await createEndpoint(
      server.app.db,
      clinic.account,
      actor,
      { url: workerUrl, events: 'all' },
      true,
    );
    await server.app.db.transaction(async (tx) => {
      for (let i = 0; i < n; i++) await announce(tx, clinic.account.id, 'patients.updated', 'patients', i + 1);
    });
    const rows = await server.app.db.db
      .select({ id: webhookMessages.id, event_id: webhookMessages.event_id })
      .from(webhookMessages)
      .where(eq(webhookMessages.endpoint_id, endpoint.id));
    expect(rows).toHaveLength(n);
    return rows;
  }

  const statuses = async (ids: number[]) =>
    (await server.app.db.db.select().from(webhookMessages).where(inArray(webhookMessages.id, ids))).map((m) => ({
      event_id: m.event_id,
      status: m.status,
    }));
  const delivered = async (ids: number[]) => (await statuses(ids)).every((m) => m.status === 'delivered');

  test('a worker with METRICS_PORT serves its own metrics: the deliveries it made, by outcome', async () => {
    const messages = await eventsFor(5);
    const ids = messages.map((m) => m.id);
    const w = startWorker({ METRICS_PORT: '0' }, 'pipe');
    let said = '';
    w.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
    try {
      await until(
        async () => /metrics on http:\/\/127\.0\.0\.1:\d+\/metrics/.test(said),
        30_000,
        'the metrics address',
      );
      await until(() => delivered(ids), 30_000, '5 deliveries');
      const url = /metrics on (http:\S+)/.exec(said)![1];
      const text = await (await fetch(url)).text();
      const line = text.split('\n').find((l) => l.startsWith('clinic_webhook_deliveries_total{outcome="delivered"} '));
      expect(Number(line?.split(' ')[1])).toBeGreaterThanOrEqual(5);
      expect(text).toContain('nodejs_eventloop_lag_seconds');
    } finally {
      await stop(w);
    }
  }, 60_000);

  test.skipIf(!isPg)(
    'two workers on PostgreSQL deliver 1,000 events and attempt none twice (only on PostgreSQL)',
    async () => {
      const messages = await eventsFor(1000);
      const ids = messages.map((m) => m.id);
      const workers = [startWorker(), startWorker()];
      try {
        await until(() => delivered(ids), 90_000, '1,000 deliveries');
      } finally {
        await Promise.all(workers.map((w) => stop(w)));
      }
      const attempts = await server.app.db.db
        .select({ message_id: webhookAttempts.message_id })
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.message_id, ids));
      expect(attempts).toHaveLength(1000);
      expect(new Set(attempts.map((a) => a.message_id)).size).toBe(1000);
      for (const m of messages) expect(seen.get(m.event_id)).toBe(1);
    },
    120_000,
  );

  test('a worker killed with SIGKILL mid-delivery: after its leases expire another delivers exactly what was not acknowledged', async () => {
    holdFirst = 4;
    holdMs = 60_000;
    const messages = await eventsFor(12);
    const ids = messages.map((m) => m.id);
    const env = { WEBHOOK_TIMEOUT_MS: '3000' };
    const first = startWorker(env);
    // 8 are acknowledged; the receiver holds 4 without answering when the worker dies.
    await until(
      async () =>
        messages.every((m) => seen.has(m.event_id)) &&
        (await statuses(ids)).filter((m) => m.status === 'delivered').length === 8,
      30_000,
      'the first deliveries',
    );
    await stop(first, 'SIGKILL');
    const unacknowledged = (await statuses(ids)).filter((m) => m.status !== 'delivered').map((m) => m.event_id);
    expect(unacknowledged).toHaveLength(4);
    const before = new Map(seen);
    const second = startWorker(env);
    try {
      await until(() => delivered(ids), 30_000, 'redelivery after the leases expire');
    } finally {
      await stop(second);
    }
    const resent = messages
      .filter((m) => (seen.get(m.event_id) ?? 0) > (before.get(m.event_id) ?? 0))
      .map((m) => m.event_id);
    expect(resent.sort()).toEqual(unacknowledged.sort());
    for (const m of messages) expect(seen.get(m.event_id)).toBe(unacknowledged.includes(m.event_id) ? 2 : 1);
  }, 60_000);
});
