/**
 * An endpoint's page in the portal (issue 25 §3), through the portal's own transport: the list's last
 * delivery follows the attempts; an endpoint is edited with errors per attribute; its messages come a
 * page at a time by cursor, filtered by status and by event type; a message shows its payload and every
 * attempt with the headers it sent (the signature verifies with the endpoint's secret) and the body that
 * came back; a replay adds an attempt; the recovery's count is what the recovery then sends; the chart's
 * bars count the attempts. Another clinic's endpoint and messages are not found. Every page read is
 * served by an index led by account_id, without a sort step.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isPg } from '../../db/dialect';
import { announce } from '../events/record';
import { newClinic, useClinic, type Clinic } from './helpers';
import { portalCode, portalData, signedIn, type PortalClient } from './support/portal';
import { recordingDb, type Captured } from './support/recording-db';
import { messagePage } from '../domain/webhook-deliveries';
import { planOf, pgSorts } from './support/plans';

const t = useClinic({ env: { WEBHOOK_RETRY_DELAYS: '0', WEBHOOK_TIMEOUT_MS: '7000' } });
const drain = () => t.server.app.webhooks.drain();

/** A receiver: paths starting /fail answer 500 with a body, others 200 with one. */
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const failing = (req.url ?? '').startsWith('/fail');
    res.statusCode = failing ? 500 : 200;
    res.end(failing ? '<b>down</b> for maintenance' : `thanks for ${req.headers['webhook-id']}`);
  });
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

interface Setup {
  clinic: Clinic;
  portal: PortalClient;
  id: number;
  secret: string;
}

/** A clinic of its own with a signed-in admin and one endpoint at the path. */
async function withEndpoint(path: string, events: 'all' | string[] = 'all'): Promise<Setup> {
  const clinic = await newClinic(t.server);
  const { portal } = await signedIn(t.server, clinic, 'admin');
  const res = await portal.mutate('webhooks.create', { url: `${base}${path}`, events });
  expect(res.status).toBe(200);
  const { endpoint, secret } = portalData(res);
  return { clinic, portal, id: endpoint.id, secret };
}

/** Events announced for the clinic (each fans out to its endpoints), in one transaction. */
async function announceMany(clinic: Clinic, types: ('patients.created' | 'patients.updated')[]) {
  await t.server.app.db.transaction(async (tx) => {
    for (const [i, type] of types.entries()) await announce(tx, clinic.account.id, type, 'patients', i + 1);
  });
}

describe('the list', () => {
  test('a member disabling an endpoint is said once: the activity entry names them, the page says who', async () => {
    const s = await withEndpoint('/disable-words');
    expect((await s.portal.mutate('webhooks.setEnabled', { id: s.id, enabled: false })).status).toBe(200);
    const [entry] = portalData(await s.portal.query('activity.list', { kind: 'webhooks' })).data as {
      summary: string;
    }[];
    expect(entry.summary).toMatch(/ disabled the webhook endpoint \S+\/disable-words$/);
    const [listed] = portalData(await s.portal.query('webhooks.list')).data;
    expect(listed.disabled_reason).toMatch(/^Disabled by /);
  });

  test('says what an endpoint URL may be here: this server allows private targets (WEBHOOKS_ALLOW_PRIVATE), and its timeout', async () => {
    const s = await withEndpoint('/list-targets');
    const targets = portalData(await s.portal.query('webhooks.list')).targets;
    expect(targets).toEqual({ private_allowed: true, timeout_ms: 7000 });
  });

  test("an endpoint's last delivery is read from its attempts: none, then a success, then a failure", async () => {
    const s = await withEndpoint('/list-last');
    const last = async () => portalData(await s.portal.query('webhooks.list')).data[0].last_attempt;
    expect(await last()).toBeNull();
    await announceMany(s.clinic, ['patients.created']);
    await drain();
    expect(await last()).toMatchObject({ ok: true, status_code: 200, error: null });
    expect(
      (await s.portal.mutate('webhooks.update', { id: s.id, url: `${base}/fail-list`, events: 'all' })).status,
    ).toBe(200);
    await announceMany(s.clinic, ['patients.updated']);
    await drain();
    expect(await last()).toMatchObject({ ok: false, status_code: 500 });
  });
});

describe('editing an endpoint', () => {
  test('URL, description and event types change; bad input is refused per attribute and changes nothing', async () => {
    const s = await withEndpoint('/edit');
    const ok = await s.portal.mutate('webhooks.update', {
      id: s.id,
      url: `${base}/edited`,
      description: 'Billing sync',
      events: ['patients.created'],
    });
    expect(ok.status).toBe(200);
    expect(portalData(await s.portal.query('webhooks.get', { id: s.id })).endpoint).toMatchObject({
      url: `${base}/edited`,
      description: 'Billing sync',
      events: ['patients.created'],
    });

    const unknown = await s.portal.mutate('webhooks.update', {
      id: s.id,
      url: `${base}/edited`,
      events: ['patients.exploded'],
    });
    expect(unknown.status).toBe(422);
    expect(portalCode(unknown)).toBe('validation_failed');
    expect(unknown.body.error.data.errors.events[0]).toMatch(/patients\.exploded/);
    const noUrl = await s.portal.mutate('webhooks.update', { id: s.id, url: 'ftp://nowhere', events: 'all' });
    expect(noUrl.status).toBe(422);
    expect(Object.keys(noUrl.body.error.data.errors)).toEqual(['url']);
    expect(portalData(await s.portal.query('webhooks.get', { id: s.id })).endpoint).toMatchObject({
      url: `${base}/edited`,
      events: ['patients.created'],
    });
  });
});

describe('messages, a page at a time', () => {
  test('newest first by cursor with no message twice; filtered by event type and by status', async () => {
    const s = await withEndpoint('/pages');
    // 30 messages: 20 created, 10 updated, interleaved.
    await announceMany(
      s.clinic,
      Array.from({ length: 30 }, (_, i) => (i % 3 === 2 ? 'patients.updated' : 'patients.created')),
    );
    const first = portalData(await s.portal.query('webhooks.messagePage', { id: s.id }));
    expect(first.data).toHaveLength(25);
    // One attempt per WEBHOOK_RETRY_DELAYS entry ('0' here): what "attempt 3 of 8" counts to.
    expect(first.max_attempts).toBe(1);
    expect(first.next_cursor).toBe(first.data[24].id);
    const second = portalData(await s.portal.query('webhooks.messagePage', { id: s.id, cursor: first.next_cursor }));
    expect(second.data).toHaveLength(5);
    expect(second.next_cursor).toBeNull();
    const ids = [...first.data, ...second.data].map((m: { id: number }) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(30);

    const updated = portalData(
      await s.portal.query('webhooks.messagePage', { id: s.id, event_type: 'patients.updated' }),
    ).data;
    expect(updated.map((m: { event_type: string }) => m.event_type)).toEqual(Array(10).fill('patients.updated'));

    expect(portalData(await s.portal.query('webhooks.messagePage', { id: s.id, status: 'delivered' })).data).toEqual(
      [],
    );
    expect(portalData(await s.portal.query('webhooks.messagePage', { id: s.id, status: 'pending' })).data).toHaveLength(
      25,
    );
    await drain();
    expect(portalData(await s.portal.query('webhooks.messagePage', { id: s.id, status: 'pending' })).data).toEqual([]);
    const delivered = portalData(
      await s.portal.query('webhooks.messagePage', { id: s.id, status: 'delivered', event_type: 'patients.updated' }),
    );
    expect(delivered.data.map((m: { status: string }) => m.status)).toEqual(Array(10).fill('delivered'));
    expect(delivered.next_cursor).toBeNull();
  });

  test('a disabled endpoint’s new messages are waiting, under that filter and not under pending', async () => {
    const s = await withEndpoint('/waiting');
    expect((await s.portal.mutate('webhooks.setEnabled', { id: s.id, enabled: false })).status).toBe(200);
    await announceMany(s.clinic, ['patients.created', 'patients.created']);
    expect(
      portalData(await s.portal.query('webhooks.messagePage', { id: s.id, status: 'waiting' })).data.map(
        (m: { status: string }) => m.status,
      ),
    ).toEqual(['waiting', 'waiting']);
    expect(portalData(await s.portal.query('webhooks.messagePage', { id: s.id, status: 'pending' })).data).toEqual([]);
  });

  test.each([
    [{ status: 'lost' }, 'status'],
    [{ event_type: 'patients.exploded' }, 'event_type'],
    [{ cursor: 0 }, 'cursor'],
    [{ cursor: 'abc' }, 'cursor'],
  ])('%j is refused (422 validation_failed) naming %s', async (input, attribute) => {
    const s = await withEndpoint('/refused');
    const res = await s.portal.query('webhooks.messagePage', { id: s.id, ...input });
    expect(res.status).toBe(422);
    expect(portalCode(res)).toBe('validation_failed');
    expect(Object.keys(res.body.error.data.errors)).toEqual([attribute]);
  });
});

describe('a message in detail', () => {
  test('payload, every attempt with the headers it sent (the signature verifies) and the response body; a replay adds an attempt', async () => {
    const s = await withEndpoint('/detail');
    await announceMany(s.clinic, ['patients.created']);
    await drain();
    const [listed] = portalData(await s.portal.query('webhooks.messagePage', { id: s.id })).data;
    const detail = portalData(await s.portal.query('webhooks.message', { endpoint_id: s.id, message_id: listed.id }));
    expect(detail).toMatchObject({ id: listed.id, event_type: 'patients.created', status: 'delivered' });
    expect(JSON.parse(detail.payload)).toMatchObject({
      id: detail.event_id,
      type: 'patients.created',
      data: { entity: 'patients', id: 1 },
    });
    expect(detail.payload).toContain('\n  "type"');
    expect(detail.attempts).toHaveLength(1);
    const [attempt] = detail.attempts;
    expect(attempt).toMatchObject({
      ok: true,
      status_code: 200,
      error: null,
      trigger: 'scheduled',
      response_body: `thanks for ${detail.event_id}`,
    });
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
    const headers = attempt.request_headers;
    expect(headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': detail.event_id });
    // As the receiver would: the headers shown are the ones that verify the body sent (the compact payload).
    const sent = JSON.stringify(JSON.parse(detail.payload));
    expect(new Webhook(s.secret).verify(sent, headers)).toMatchObject({ id: detail.event_id });
    expect(JSON.stringify(detail)).not.toContain(s.secret.slice(6));

    expect((await s.portal.mutate('webhooks.replay', { event_id: detail.event_id, endpoint_id: s.id })).status).toBe(
      200,
    );
    await drain();
    const after = portalData(await s.portal.query('webhooks.message', { endpoint_id: s.id, message_id: listed.id }));
    expect(after.attempts.map((a: { trigger: string }) => a.trigger)).toEqual(['manual', 'scheduled']);
  });

  test('a failing endpoint’s response body is kept as text, as it came', async () => {
    const s = await withEndpoint('/fail-detail');
    await announceMany(s.clinic, ['patients.created']);
    await drain();
    const [listed] = portalData(await s.portal.query('webhooks.messagePage', { id: s.id })).data;
    expect(listed.status).toBe('failed');
    const detail = portalData(await s.portal.query('webhooks.message', { endpoint_id: s.id, message_id: listed.id }));
    expect(detail.attempts[0]).toMatchObject({
      ok: false,
      status_code: 500,
      response_body: '<b>down</b> for maintenance',
    });
  });
});

describe('recover', () => {
  test('the count is what the recovery then sends: failed messages created since the time', async () => {
    const s = await withEndpoint('/fail-recover');
    await announceMany(s.clinic, ['patients.created', 'patients.updated', 'patients.created']);
    await drain();
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const count = await s.portal.query('webhooks.recoverCount', { endpoint_id: s.id, since });
    expect(portalData(count)).toEqual({ messages: 3 });
    expect(
      portalData(
        await s.portal.query('webhooks.recoverCount', {
          endpoint_id: s.id,
          since: new Date(Date.now() + 60_000).toISOString(),
        }),
      ),
    ).toEqual({ messages: 0 });
    expect(portalData(await s.portal.mutate('webhooks.recover', { endpoint_id: s.id, since }))).toEqual({
      messages: 3,
    });
    // Sent again: none is failed any more until they fail again.
    expect(portalData(await s.portal.query('webhooks.recoverCount', { endpoint_id: s.id, since }))).toEqual({
      messages: 0,
    });
  });
});

describe('delivery success over time', () => {
  test('the current bar counts the attempts that succeeded and failed; earlier bars are empty; 24 hourly and 7 daily bars', async () => {
    const s = await withEndpoint('/stats');
    await announceMany(s.clinic, ['patients.created', 'patients.created']);
    await drain();
    expect(
      (await s.portal.mutate('webhooks.update', { id: s.id, url: `${base}/fail-stats`, events: 'all' })).status,
    ).toBe(200);
    await announceMany(s.clinic, ['patients.updated']);
    await drain();
    for (const [range, bars] of [
      ['24h', 24],
      ['7d', 7],
    ] as const) {
      const stats = portalData(await s.portal.query('webhooks.stats', { id: s.id, range }));
      expect(stats.bars).toHaveLength(bars);
      const last = stats.bars[bars - 1];
      expect([last.succeeded, last.failed]).toEqual([2, 1]);
      expect(Date.parse(last.from)).toBeLessThanOrEqual(Date.now());
      expect(Date.parse(last.to)).toBeGreaterThan(Date.now());
      expect(
        stats.bars.slice(0, -1).every((b: { succeeded: number; failed: number }) => b.succeeded + b.failed === 0),
      ).toBe(true);
    }
  });
});

describe('tenants walled off', () => {
  test("another clinic's endpoint and message are not found by every read and change of the page", async () => {
    const theirs = await withEndpoint('/theirs');
    await announceMany(theirs.clinic, ['patients.created']);
    await drain();
    const [message] = portalData(await theirs.portal.query('webhooks.messagePage', { id: theirs.id })).data;
    const mine = await withEndpoint('/mine');
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const calls = [
      mine.portal.query('webhooks.get', { id: theirs.id }),
      mine.portal.query('webhooks.stats', { id: theirs.id, range: '24h' }),
      mine.portal.query('webhooks.messagePage', { id: theirs.id }),
      mine.portal.query('webhooks.message', { endpoint_id: theirs.id, message_id: message.id }),
      // Their message under my endpoint's id.
      mine.portal.query('webhooks.message', { endpoint_id: mine.id, message_id: message.id }),
      mine.portal.query('webhooks.recoverCount', { endpoint_id: theirs.id, since }),
      mine.portal.mutate('webhooks.update', { id: theirs.id, url: `${base}/stolen`, events: 'all' }),
      mine.portal.mutate('webhooks.recover', { endpoint_id: theirs.id, since }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404);
      expect(portalCode(res)).toBe('not_found');
    }
    expect(portalData(await theirs.portal.query('webhooks.get', { id: theirs.id })).endpoint.url).toBe(
      `${base}/theirs`,
    );
  });
});

/** Why the database would sort this statement's rows or read other clinics' rows, or null when an index led by account_id yields them in order. */
async function planProblem(statement: Captured): Promise<string | null> {
  const plan = await planOf(t.server, statement, 'webhook_messages');
  if (isPg) return pgSorts(plan) || !/"Index Cond":"[^"]*account_id = /.test(plan) ? plan : null;
  return plan.includes('USE TEMP B-TREE') || !/USING (COVERING )?INDEX webhook_messages_endpoint/.test(plan)
    ? plan
    : null;
}

describe('every page of messages is read from an index, in order', () => {
  // Statistics taken afresh over a table with clinics of several endpoints each, as a server's base holds.
  // With those the suite's shared file left (a handful of rows when it opened), SQLite rightly scans or
  // walks the rowid: cheapest for so few rows, and no question of a big clinic's plan.
  beforeAll(async () => {
    for (let c = 0; c < 3; c++) {
      const { clinic, portal } = await withEndpoint(`/plans-fill-${c}`);
      expect((await portal.mutate('webhooks.create', { url: `${base}/plans-fill-b`, events: 'all' })).status).toBe(200);
      await announceMany(
        clinic,
        Array.from({ length: 150 }, (_, i) => (i % 3 ? 'patients.updated' : 'patients.created')),
      );
    }
  }, 60_000);

  test.each([
    {},
    { status: 'failed' as const },
    { event_type: 'patients.updated' },
    { status: 'delivered' as const, cursor: 1_000_000 },
  ])('%j', async (filter) => {
    const s = await withEndpoint('/plans');
    const { db, statements } = recordingDb(t.server);
    await messagePage(db, s.clinic.account.id, s.id, { ...filter, limit: 25 });
    const page = statements.filter((st) => /from "webhook_messages"/.test(st.sql) && / order by /i.test(st.sql));
    expect(page).toHaveLength(1);
    expect(await planProblem(page[0]), page[0].sql).toBeNull();
  });
});
