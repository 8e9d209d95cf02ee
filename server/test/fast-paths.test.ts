/**
 * The speed shortcuts over library internals are taken (server/shortcuts.ts): each one falls back to the
 * library's own path when the internals it reads change shape (an upgrade of @trpc/server or
 * drizzle-orm), and a fallback answers the same, only slower, so only this file would notice.
 *
 * - Every GET route, walked from the route table, calls its resolver directly, never through tRPC's
 *   middleware chain; list reads (offset and cursor pages) and single reads read their rows as arrays.
 * - Every JSON route's documented response schema (written into tRPC's procedure definition by
 *   documentOutput) reaches the route table, so the test servers still validate every response.
 * - Rows read as arrays decode exactly as drizzle's own mapping decodes them, for every resource.
 * - The observer hears a fallback when one is taken (so silence above means something).
 *
 * Runs on SQLite, and on PostgreSQL with DATABASE_URL (directly and through PgBouncer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { isPg } from '../../db/dialect';
import { selectedRows } from '../list/rows';
import { RESOURCES } from '../resources';
import type { Resource } from '../resources/define';
import { RouteTable, type Route } from '../rest/routes';
import { appRouter } from '../routers';
import { fallbacks, type Fallback } from '../shortcuts';
import { client, newClinic, startServer, type Api, type Clinic, type Res, type TestServer } from './helpers';

const heard: { which: Fallback; where: string }[] = [];
// Before any server or decoder is built: decoders are made (and report) once per selection.
fallbacks.seen = (which, where) => heard.push({ which, where });

/** What `work` made the observer hear. */
async function fallbacksDuring<T>(work: () => Promise<T>): Promise<{ result: T; heard: string[] }> {
  heard.length = 0;
  const result = await work();
  return { result, heard: heard.map(({ which, where }) => `${which} (${where})`) };
}

const table = new RouteTable(appRouter);
const name = (r: Route) => `${r.method} ${r.path}`;
const reads = table.routes.filter((r) => r.method === 'GET');
const lists = reads.filter((r) => r.path.split('/').length === 2 && r.path.slice(1) in RESOURCES);
const jsonRoutes = table.routes.filter((r) => r.status !== 204 && !r.binary);
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const ok = (res: Res, status: number) => expect(res.status, `${res.status} ${res.text.slice(0, 300)}`).toBe(status);

let server: TestServer;
let clinic: Clinic;
let api: Api;

/** A concrete path for a GET route: a record of the clinic behind {id}, the query a search needs. */
async function pathFor(route: Route): Promise<string> {
  let path = route.path.replace('{resource}', 'patients');
  if (path.includes('{id}')) {
    const collection = route.path.split('/')[1];
    const id = (await api.get(`/${collection}?page_size=1`)).body?.data?.[0]?.id;
    expect(['number', 'string'], `no ${collection} record in the seeded clinic for ${name(route)}`).toContain(
      typeof id,
    );
    path = path.replace('{id}', String(id));
  }
  if (route.path === '/availability') {
    const appt = (await api.get('/appointments?page_size=1')).body.data[0];
    path += `?location_id=${appt.location_id}&appointment_type_id=${appt.appointment_type_id}&from=${day(1)}&to=${day(7)}`;
  }
  return path;
}

beforeAll(async () => {
  server = await startServer();
  clinic = await newClinic(server, { seed: true });
  api = client(server, clinic);
}, 120_000);
afterAll(() => server?.close());

describe('every GET route is called directly, not through tRPC’s middleware chain', () => {
  it.each(reads.map((r) => [name(r), r] as const))('%s', async (_, route) => {
    const path = await pathFor(route);
    const { result, heard } = await fallbacksDuring(() => api.get(path));
    ok(result, route.status);
    expect(
      heard,
      `${name(route)} took a fallback: a changed @trpc/server or drizzle-orm internal (server/shortcuts.ts)`,
    ).toEqual([]);
  });
});

describe('list reads read their rows as arrays (offset and cursor pages, a text search)', () => {
  it.each(lists.map((r) => [name(r), r] as const))('%s', async (_, route) => {
    for (const query of ['?page_size=100', '?cursor=&page_size=100']) {
      const { result, heard } = await fallbacksDuring(() => api.get(route.path + query));
      ok(result, 200);
      expect(result.body.data.length, `${route.path}${query}: the seeded clinic has rows to decode`).toBeGreaterThan(0);
      expect(heard, `${route.path}${query}`).toEqual([]);
    }
  });
  it('GET /patients?last_name=contains:… (planned each time on PostgreSQL: an unnamed statement)', async () => {
    const { result, heard } = await fallbacksDuring(() => api.get('/patients?last_name=contains:a'));
    ok(result, 200);
    expect(result.body.data.length).toBeGreaterThan(0);
    expect(heard).toEqual([]);
  });
});

describe('every JSON route documents its response schema where the route table reads it', () => {
  it.each(jsonRoutes.map((r) => [name(r), r] as const))('%s', (_, route) => {
    // documentOutput writes it into tRPC's procedure definition: lost there, responses go unvalidated.
    expect(typeof route.output?.safeParse, `${name(route)}: no output schema in the route table`).toBe('function');
  });
});

/** A page of the clinic's rows of `selection`, as a prepared query (unnamed: PgBouncer-safe). */
const pageQuery = (resource: Resource, selection: Record<string, unknown>) =>
  server.app.db.db
    .select(selection as never)
    .from(resource.table)
    .where(eq(resource.table.account_id, sql.placeholder('account')))
    .orderBy(asc(resource.table.id))
    .limit(100)
    .prepare('');

describe('rows read as arrays decode exactly as drizzle maps them', () => {
  const resources = Object.values(RESOURCES) as Resource[];
  it.each(resources.map((r) => [r.name, r] as const))(
    '%s: its columns (lists) and its selection with embeds (single reads)',
    async (_, resource) => {
      for (const selection of [resource.columns, resource.selection(sql.placeholder('account'))]) {
        const query = pageQuery(resource, selection);
        const { result: rows, heard } = await fallbacksDuring(() =>
          selectedRows(selection, query, { account: clinic.account.id }),
        );
        expect(heard).toEqual([]);
        expect(rows).toEqual(await query.execute({ account: clinic.account.id }));
      }
    },
  );
});

describe('the observer hears a fallback when one is taken', () => {
  it('a write with middleware of its own runs through tRPC’s chain, and says so', async () => {
    const { result, heard } = await fallbacksDuring(() =>
      api.post('/patients', { body: { first_name: 'Fast', last_name: 'Path' } }),
    );
    ok(result, 201);
    expect(heard).toEqual(['trpc-chain (patients.create)']);
  });
  it('a prepared query without drizzle’s internals is mapped by drizzle, and says so', async () => {
    const resource = RESOURCES.patients as unknown as Resource;
    const query = pageQuery(resource, resource.columns);
    const bare = { execute: (p?: Record<string, unknown>) => query.execute(p) };
    const { result: rows, heard } = await fallbacksDuring(() =>
      selectedRows(resource.columns, bare, { account: clinic.account.id }),
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(heard).toEqual([`drizzle-row-mapping (${isPg ? 'postgresql' : 'sqlite'})`]);
  });
  it('a sql column without a decoder is read undecoded, and says so', async () => {
    const resource = RESOURCES.patients as unknown as Resource;
    const undecoded = sql`1`;
    Object.defineProperty(undecoded, 'decoder', { value: undefined });
    const selection = { id: resource.table.id, one: undecoded };
    const { heard } = await fallbacksDuring(() =>
      selectedRows(selection, pageQuery(resource, selection), { account: clinic.account.id }),
    );
    expect(heard).toEqual(['drizzle-sql-decoder (one)']);
  });
});
