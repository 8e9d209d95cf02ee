/**
 * The events feed resumes without a gap (server/list/feed.ts). A reader that keeps the last links.next and
 * calls it later gets exactly the events it has not seen: while writers in two processes commit out of the
 * order in which they stamped their events, and while a transaction that began first commits last. And a
 * reader at the end can wait (`wait=`) for the next event instead of polling.
 */
import { and, eq } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isPg } from '../../db/dialect';
import { events } from '../../db/schema';
import { expectError, newClinic, request, startServer, type Clinic, type Res, type TestServer } from './helpers';
import { spawnServer, type Spawned } from './support/spawn';

let local: TestServer;
let clinic: Clinic;
let instances: Spawned[] = [];

const call = (port: number, path: string, opts: Parameters<typeof request>[3] = {}): Promise<Res> =>
  request({ port } as TestServer, opts.body ? 'POST' : 'GET', path, { host: clinic.host, key: clinic.key, ...opts });
const relative = (link: string) => link.replace(/^https?:\/\/[^/]+\/v3\/api/, '');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The feed's link after its last event now (the reader's starting point in these tests). */
async function tail(): Promise<string> {
  let next = '/events?page_size=100&cursor=';
  for (;;) {
    const page = await call(local.port, next);
    expect(page.status, page.text).toBe(200);
    next = relative(page.body.links.next);
    if (!page.body.meta.has_more) return next;
  }
}

/** Every event id of the clinic in the outbox. */
async function stored(): Promise<string[]> {
  const rows = await local.app.db.db
    .select({ id: events.event_id })
    .from(events)
    .where(and(eq(events.account_id, clinic.account.id)));
  return rows.map((r) => r.id);
}

beforeAll(async () => {
  local = await startServer({ RATE_LIMIT_REST_PER_MINUTE: '100000' });
  clinic = await newClinic(local);
  const env = {
    DATABASE_URL: process.env.DATABASE_URL!,
    PORT: '0',
    WEB_CONCURRENCY: '1',
    WEBHOOK_WORKER: 'off',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_REST_PER_MINUTE: '100000',
    RATE_LIMIT_UNAUTH_PER_MINUTE: '100000',
  };
  instances = await Promise.all([
    spawnServer('server/test/support/cluster-server.ts', env),
    spawnServer('server/test/support/cluster-server.ts', env),
  ]);
}, 120_000);
afterAll(async () => {
  for (const s of instances) s.child.kill('SIGKILL');
  await local?.close();
});

describe('resuming the events feed', () => {
  test('8 writers in two processes; a reader resuming from links.next sees every committed event exactly once', async () => {
    const before = new Set(await stored());
    let next = await tail();
    const seen: string[] = [];
    let writing = true;
    const reader = (async () => {
      for (;;) {
        const done = !writing;
        const page = await call(local.port, next);
        expect(page.status, page.text).toBe(200);
        seen.push(...page.body.data.map((e: { id: string }) => e.id));
        next = relative(page.body.links.next);
        // After the writers stopped: read on to the end once more.
        if (done && !page.body.meta.has_more) return;
        if (!page.body.meta.has_more) await sleep(5);
      }
    })();
    const until = Date.now() + 4_000;
    const writer = async (w: number) => {
      const port = instances[w % 2].port;
      const created = await call(port, '/patients', { body: { first_name: `Writer${w}`, last_name: 'Feed' } });
      expect(created.status, created.text).toBe(201);
      for (let i = 0; Date.now() < until; i++) {
        const res = await request({ port } as TestServer, 'PATCH', `/patients/${created.body.data.id}`, {
          host: clinic.host,
          key: clinic.key,
          body: { last_name: `Feed ${i}`, numbers: i % 3 ? [] : [{ number: '07700900123', type: 'mobile' }] },
        });
        expect(res.status, res.text).toBe(200);
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
    writing = false;
    await reader;
    const written = (await stored()).filter((id) => !before.has(id));
    expect(written.length).toBeGreaterThan(100);
    expect(new Set(seen).size, 'no event twice').toBe(seen.length);
    expect([...seen].sort()).toEqual([...written].sort());
  }, 60_000);

  test.runIf(isPg)(
    'a transaction that began first and commits last: its event is not skipped by a reader that saw a later one (only on PostgreSQL)',
    async () => {
      const from = await tail();
      const client = await (local.app.db as unknown as { pool: pg.Pool }).pool.connect();
      try {
        await client.query('begin');
        await client.query(
          `insert into events (event_id, account_id, type, entity, entity_id, occurred_at) values (gen_random_uuid(), $1, 'patients.updated', 'patients', 1, now())`,
          [clinic.account.id],
        );
        // A later transaction commits first.
        const created = await call(local.port, '/patients', { body: { first_name: 'Later', last_name: 'First' } });
        expect(created.status).toBe(201);
        // The reader is held at the first one's position until it ends, then gets both, in commit order.
        const reading = call(local.port, from);
        await sleep(300);
        await client.query('commit');
        const page = await reading;
        expect(page.body.data.map((e: { type: string }) => e.type)).toEqual(['patients.updated', 'patients.created']);
        const after = await call(local.port, relative(page.body.links.next));
        expect(after.body.data).toEqual([]);
      } finally {
        client.release();
      }
    },
  );

  test.runIf(isPg)(
    'a numbered page (no cursor) shows the reader its own write while an older transaction is still running (only on PostgreSQL)',
    async () => {
      const client = await (local.app.db as unknown as { pool: pg.Pool }).pool.connect();
      try {
        // An older transaction with an id of its own holds back every event written after it began.
        await client.query('begin');
        await client.query('select pg_current_xact_id()');
        const created = await call(local.port, '/patients', { body: { first_name: 'Own', last_name: 'Write' } });
        expect(created.status).toBe(201);
        const reading = call(local.port, `/events?data.entity=patients&data.id=${created.body.data.id}`);
        await sleep(300);
        await client.query('commit');
        const page = await reading;
        expect(page.status, page.text).toBe(200);
        expect(page.body.data.map((e: { type: string }) => e.type)).toEqual(['patients.created']);
        expect(page.body.meta.total).toBe(1);
      } finally {
        client.release();
      }
    },
  );

  test('wait= holds the last page and answers as soon as an event is written', async () => {
    const from = await tail();
    const started = Date.now();
    const waiting = call(local.port, `${from}&wait=10`);
    await sleep(300);
    const written = Date.now();
    const created = await call(local.port, '/patients', { body: { first_name: 'Wait', last_name: 'Here' } });
    const page = await waiting;
    expect(page.status, page.text).toBe(200);
    expect(page.body.data).toEqual([
      expect.objectContaining({ type: 'patients.created', data: { entity: 'patients', id: created.body.data.id } }),
    ]);
    expect(Date.now() - written, 'answered at once, not at the end of the wait').toBeLessThan(2_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  test('wait= written through another process is found by polling within a second or so', async () => {
    const from = await tail();
    const waiting = call(local.port, `${from}&wait=10`);
    await sleep(200);
    const written = Date.now();
    expect(
      (await call(instances[0].port, '/patients', { body: { first_name: 'Other', last_name: 'Proc' } })).status,
    ).toBe(201);
    const page = await waiting;
    expect(page.body.data.map((e: { type: string }) => e.type)).toEqual(['patients.created']);
    expect(Date.now() - written).toBeLessThan(2_000);
  });

  test('an empty wait runs out and answers an empty page that still links where to resume', async () => {
    const from = await tail();
    const started = Date.now();
    const page = await call(local.port, `${from}&wait=1`);
    expect(page.status).toBe(200);
    expect(page.body.data).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    const cursorOf = (link: string) => new URL(link, 'http://x').searchParams.get('cursor');
    expect(cursorOf(relative(page.body.links.next))).toBe(cursorOf(from));
  });

  test('wait is whole seconds up to 20, with cursor paging, on the feed only: 422 otherwise', async () => {
    const from = await tail();
    for (const query of [
      `${from}&wait=21`,
      `${from}&wait=-1`,
      `${from}&wait=1.5`,
      '/events?wait=5',
      '/patients?cursor=&wait=5',
    ]) {
      const res = await call(local.port, query);
      expectError(res, 422, 'validation_failed');
      expect(Object.keys(res.body.errors), query).toEqual(['wait']);
    }
  });
});
