/**
 * On Citus every request of one clinic is a router query (issue 40): each statement the server sends
 * while answering it runs as one task on the clinic's shard, or on the coordinator alone (its own local
 * tables, a statement that reads no table), and none writes a reference table (a commit on every node).
 * Generated from the route table, so a new route is covered the day it is added: every GET route (lists,
 * reads by id of a record of the clinic, availability, the feed, the schema), every write route and
 * portal setup mutation with the valid input of support/write-calls.ts (bookings, invoices, payments,
 * cascades), an idempotent create and its replay, the request log's batch of the clinic's requests, and
 * a retention sweep's batches (server/scheduler/sweep-batches.ts sweepEachClinic).
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import type pg from 'pg';
import { events } from '../../db/schema';
import { sweepEvents } from '../events/sweep';
import { setSweepPace } from '../scheduler/sweep-batches';
import { RouteTable, type Route } from '../rest/routes';
import { RESOURCES } from '../resources';
import { appRouter } from '../routers';
import { request, useClinic, type Res } from './helpers';
import { D } from './scheduling-fixture';
import { onCitusRun as onCitus, notRouted, recordStatements } from './support/citus-routing';
import type { Captured } from './support/recording-db';
import {
  CALLS,
  callRoute,
  callSetup,
  nameOf,
  prepareWriteCalls,
  SETUP,
  SETUP_CALLS,
  WRITES,
  writeFixtures,
} from './support/write-calls';

const t = useClinic({ seed: true });
const READS = new RouteTable(appRouter).routes.filter((r) => r.method === 'GET');

/** The statements the server sent while `work` ran, and what Citus made of each. */
async function routing(work: () => Promise<unknown>): Promise<{ statements: Captured[]; problems: string[] }> {
  const recorder = recordStatements();
  try {
    await work();
  } finally {
    recorder.stop();
  }
  const pool = (t.server.app.db as unknown as { pool: pg.Pool }).pool;
  return { statements: recorder.statements, problems: await notRouted(pool, recorder.statements) };
}

const get = (path: string): Promise<Res> => request(t.server, 'GET', path, { host: t.clinic.host, key: t.clinic.key });

/** A GET route's path with a record of the clinic in its `{id}` (its list's first), and the query it needs. */
async function readPath(route: Route): Promise<string> {
  const { cal } = writeFixtures();
  if (route.path === '/availability')
    return `/availability?location_id=${cal.siteA}&appointment_type_id=${cal.followUp}&from=${D(0)}&to=${D(6)}`;
  if (route.path === '/schema/{resource}') return '/schema/patients';
  if (!route.path.includes('{id}')) return route.path;
  const list = route.path.slice(0, route.path.indexOf('/{id}'));
  const [first] = ((await get(`${list}?page_size=1`)).body?.data ?? []) as { id?: number }[];
  return route.path.replace('{id}', String(first?.id ?? 1));
}

describe.runIf(onCitus)('every request of one clinic is a router query on Citus (only on Citus)', () => {
  beforeAll(() => prepareWriteCalls(t), 60_000);

  test.each(READS.map((r) => [nameOf(r), r] as const))('%s', async (_name, route) => {
    const path = await readPath(route);
    const { statements, problems } = await routing(async () => {
      const res = await get(path);
      expect(res.status, `${path} ${res.text}`).toBeLessThan(500);
    });
    // A resource's list or record is read from its tables (the key and the clinic may come from memory).
    if (route.path.split('/')[1] in RESOURCES)
      expect(statements.length, 'the request reads its table').toBeGreaterThan(0);
    expect(problems, path).toEqual([]);
  });

  test.each(WRITES.map((r) => [nameOf(r), r] as const))('%s', async (name, route) => {
    const inputs = await CALLS[name]!();
    const { statements, problems } = await routing(async () => {
      for (const input of inputs) await callRoute(route, input);
    });
    expect(
      statements.some((s) => /^\s*(insert|update|delete)\b/i.test(s.sql)),
      'the route writes',
    ).toBe(true);
    expect(problems).toEqual([]);
  });

  test.each(SETUP.map((path) => [`portal ${path}`, path] as const))('%s', async (_name, path) => {
    const inputs = await SETUP_CALLS[path]!();
    const { problems } = await routing(async () => {
      for (const input of inputs) await callSetup(path, input);
    });
    // The clinic's profile is its row of accounts, a reference table: a rare change, committed on every
    // node (docs/decisions.md, the clinic profile). Nothing else a setup write does may leave the shard.
    const allowed = path === 'practice.profile.update' ? /^writes the reference table accounts: update/ : null;
    expect(problems.filter((p) => !allowed?.test(p))).toEqual([]);
  });

  test('an idempotent create, its replay and a conflicting reuse of its key', async () => {
    const headers = { 'Idempotency-Key': `citus-${Date.now()}` };
    const post = (body: unknown) =>
      request(t.server, 'POST', '/patients', { host: t.clinic.host, key: t.clinic.key, headers, body });
    const { statements, problems } = await routing(async () => {
      const first = await post({ first_name: 'Ida', last_name: 'Idem' });
      expect(first.status).toBe(201);
      const replay = await post({ first_name: 'Ida', last_name: 'Idem' });
      expect(replay.status).toBe(201);
      expect(replay.body.data.id).toBe(first.body.data.id);
      expect((await post({ first_name: 'Other', last_name: 'Idem' })).status).toBe(422);
    });
    expect(statements.some((s) => /idempotency_keys/.test(s.sql))).toBe(true);
    expect(problems).toEqual([]);
  });

  test('a retention sweep deletes each clinic’s expired rows with statements on its shard alone', async () => {
    const old = Date.UTC(2020, 0, 1);
    await t.server.app.db.transaction(async (tx) => {
      await tx.insert(events).values(
        Array.from({ length: 30 }, (_, i) => ({
          event_id: `evt_citus_sweep_${i}`,
          account_id: t.clinic.account.id,
          type: 'patients.updated',
          entity: 'patients',
          entity_id: 1,
          occurred_at: new Date(old + i * 1000).toISOString(),
        })),
      );
    });
    setSweepPace({ batch: 10, pauseFactor: 0, batchMs: 0 });
    try {
      const { statements, problems } = await routing(() => sweepEvents(t.server.app.db));
      const deletes = statements.filter((s) => /^\s*delete\b/i.test(s.sql));
      expect(deletes.length).toBeGreaterThanOrEqual(3);
      // The clinics with expired rows are found by one statement over every shard; every delete is routed.
      expect(problems.filter((p) => !/select distinct/i.test(p))).toEqual([]);
    } finally {
      setSweepPace(null);
    }
    const [left] = await t.server.app.db.all<{ n: string }>(
      sql`select count(*) as n from events where account_id = ${t.clinic.account.id} and occurred_at < '2021-01-01'`,
    );
    expect(Number(left.n)).toBe(0);
  });

  test('the request log: a batch of one clinic’s requests is written on its shard', async () => {
    await t.server.app.requestLog.flush();
    for (let i = 0; i < 3; i++) expect((await get('/ping')).status).toBe(200);
    const { statements, problems } = await routing(() => t.server.app.requestLog.flush());
    expect(statements.some((s) => /insert into "request_log"/i.test(s.sql))).toBe(true);
    expect(problems).toEqual([]);
  });
});
