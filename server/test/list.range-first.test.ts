/**
 * Lists with a range (issue 41). Without a sort they are in the range attribute's order (grammar.ts
 * rangeOrder), read through the index that bounds the range. Sorted by another column, a page is read
 * range first on PostgreSQL when few rows match (server/list/engine.ts RANGE_FIRST): the same records,
 * totals and cursors as the statement that walks the order's index, for offset and cursor pages, in
 * several orders; the range-first statement sorts an expression no index serves and its plan bounds the
 * range in an index; above the bound (or on SQLite) the plain statement runs.
 */
import { getTableName, sql } from 'drizzle-orm';
import { afterEach, describe, expect, test } from 'vitest';
import { execIn } from '../../db/client';
import { isPg } from '../../db/dialect';
import { listRecords, RANGE_FIRST, type RawQuery } from '../list/engine';
import { RESOURCES } from '../resources';
import type { Resource } from '../resources/define';
import { newClinic, useClinic, type Clinic } from './helpers';
import { planOf, pgSorts } from './support/plans';
import { recordingDb } from './support/recording-db';

const t = useClinic({ seed: true });
const RANGE_FIRST_SQL = /order by coalesce\(/i;
const usual = RANGE_FIRST.rows;
afterEach(() => {
  RANGE_FIRST.rows = usual;
});

const resource = (name: string) => RESOURCES[name as keyof typeof RESOURCES] as unknown as Resource;

async function listWith(name: string, query: RawQuery, rangeFirstUpTo: number) {
  RANGE_FIRST.rows = rangeFirstUpTo;
  const { db, statements } = recordingDb(t.server);
  const scope = { db, accountId: t.clinic.account.id, url: `http://${t.clinic.host}/v3/api/${name}` };
  const res = await listRecords(resource(name), scope, query);
  return { res, ids: res.data.map((d) => (d as { id: number }).id), statements };
}

/** A clinic of 40,000 appointments, made once for the tests that need a big clinic's statistics. */
let made: Promise<Clinic> | undefined;
const bigClinic = () => (made ??= makeBigClinic());
async function makeBigClinic(): Promise<Clinic> {
  // 40,000 appointments, an hour apart and in id order (ids follow time), one in ten cancelled: the
  // statistics of a clinic whose recent cancellations sit at the far end of the id order.
  const big = await newClinic(t.server, { seed: true });
  const a = big.account.id;
  const first = (table: string) => `(select min(id) from ${table} where account_id = ${a})`;
  // Wall times as text; instants as the column stores them (timestamptz on PostgreSQL, ISO text on SQLite).
  const pgAt = `(timestamptz '2020-01-01T00:00:00Z' + make_interval(hours => i))`;
  const at = (fmt: string) =>
    isPg
      ? fmt.endsWith('Z')
        ? pgAt
        : `to_char(${pgAt}, 'YYYY-MM-DD"T"HH24:MI:SS')`
      : `strftime('${fmt}', '2020-01-01', '+' || i || ' hours')`;
  const insert = `${isPg ? '' : 'with recursive s(i) as (select 0 union all select i + 1 from s where i < 39999) '}
    insert into appointments (account_id, patient_id, practitioner_id, location_id, appointment_type_id, starts_at, ends_at,
                              starts_utc, ends_utc, status, allow_clash, metadata, created_at, updated_at)
    select ${a}, ${first('patients')}, ${first('practitioners')}, ${first('locations')}, ${first('appointment_types')},
           ${at('%Y-%m-%dT%H:%M:%S')}, ${at('%Y-%m-%dT%H:%M:%S')}, ${at('%Y-%m-%dT%H:%M:%S.000Z')}, ${at('%Y-%m-%dT%H:%M:%S.000Z')},
           case when i % 10 = 0 then 'cancelled' else 'booked' end, ${isPg ? 'true' : '1'}, '{}', ${at('%Y-%m-%dT%H:%M:%S.000Z')}, ${at('%Y-%m-%dT%H:%M:%S.000Z')}
    from ${isPg ? 'generate_series(0, 39999) as i' : 's'}`;
  await t.server.app.db.transaction((tx) => execIn(tx, sql.raw(insert)));
  return big;
}

const CASES: [string, RawQuery][] = [
  ['appointments', { status: 'eq:booked', starts_at: 'gte:2000-01-01T00:00:00', sort: 'id' }],
  ['appointments', { starts_at: 'between:2000-01-01T00:00:00,2100-01-01T00:00:00', sort: 'patient_id:desc' }],
  ['appointments', { starts_at: 'lt:2100-01-01T00:00:00', sort: 'updated_at' }],
  ['patients', { created_at: 'gte:2000-01-01T00:00:00Z', sort: 'last_name' }],
  ['invoices', { invoice_date: 'gte:2000-01-01', sort: 'id:desc' }],
];

describe('range-first pages', () => {
  test.each(CASES)('%s %j: the plain statement’s records, totals and cursors', async (name, query) => {
    for (const page of ['1', '2']) {
      const q = { ...query, page, page_size: '2' };
      const plain = await listWith(name, q, -1);
      const first = await listWith(name, q, Number.MAX_SAFE_INTEGER);
      expect(plain.ids.length, 'the seed has rows to page through').toBe(2);
      expect(first.ids).toEqual(plain.ids);
      expect(first.res.meta).toEqual(plain.res.meta);
      expect(plain.statements.some((s) => RANGE_FIRST_SQL.test(s.sql))).toBe(false);
      expect(first.statements.some((s) => RANGE_FIRST_SQL.test(s.sql))).toBe(isPg);
    }
    // Cursor pages: page 1, then page 2 through its next link, each way.
    const byCursor = async (upTo: number) => {
      const one = await listWith(name, { ...query, page_size: '2', cursor: '' }, upTo);
      const next = new URL(one.res.links.next!).searchParams.get('cursor')!;
      const two = await listWith(name, { ...query, page_size: '2', cursor: next }, upTo);
      return [...one.ids, ...two.ids];
    };
    expect(await byCursor(Number.MAX_SAFE_INTEGER)).toEqual(await byCursor(-1));
  });

  test.each([
    ['appointments', 'starts_at', { status: 'eq:booked', starts_at: 'gte:2000-01-01T00:00:00' }],
    ['appointments', 'starts_at', { created_at: 'gte:2000-01-01T00:00:00Z', starts_at: 'lt:2100-01-01T00:00:00' }],
    ['invoices', 'invoice_date', { invoice_date: 'between:2000-01-01,2100-01-01' }],
    ['patients', 'created_at', { created_at: 'gt:2000-01-01T00:00:00Z' }],
  ] as const)('%s with a range and no sort: in %s order, then id', async (name, attribute, query) => {
    const all = await listWith(name, { ...query, page_size: '100' }, usual);
    const sorted = await listWith(name, { ...query, page_size: '100', sort: attribute }, usual);
    expect(all.ids.length).toBeGreaterThan(1);
    expect(all.ids).toEqual(sorted.ids);
    const keys = all.res.data.map((d) => [String((d as Record<string, unknown>)[attribute]), (d as { id: number }).id]);
    const inOrder = [...keys].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : Number(x) - Number(y)));
    expect(keys).toEqual(inOrder);
    // A cursor page goes on in the same order.
    const one = await listWith(name, { ...query, page_size: '2', cursor: '' }, usual);
    const next = new URL(one.res.links.next!).searchParams.get('cursor')!;
    const two = await listWith(name, { ...query, page_size: '2', cursor: next }, usual);
    expect([...one.ids, ...two.ids]).toEqual(all.ids.slice(0, 4));
  });

  test('a range on the order’s own column keeps the index order (it bounds the walk)', async () => {
    const { statements } = await listWith(
      'appointments',
      { starts_at: 'gte:2000-01-01T00:00:00', sort: 'starts_at' },
      Number.MAX_SAFE_INTEGER,
    );
    expect(statements.some((s) => RANGE_FIRST_SQL.test(s.sql))).toBe(false);
  });

  test('on a big clinic the range is an index bound', async () => {
    const big = await bigClinic();
    const a = big.account.id;
    const recent = { status: 'eq:cancelled', starts_at: 'gte:2024-06-01T00:00:00', sort: 'id' };
    const table = getTableName(resource('appointments').table);
    const planned = async (upTo: number) => {
      RANGE_FIRST.rows = upTo;
      const { db, statements } = recordingDb(t.server);
      const scope = { db, accountId: a, url: `http://${big.host}/v3/api/appointments` };
      const res = await listRecords(resource('appointments'), scope, recent);
      const page = statements.find((s) => / order by /i.test(s.sql) && s.sql.includes(`from "${table}"`))!;
      return { res, plan: await planOf(t.server, page, table) };
    };
    const ranged = await planned(usual);
    expect(ranged.res.data.length).toBeGreaterThan(0);
    expect(ranged.plan, ranged.plan).toContain('appointments_status_starts_idx');
    if (!isPg) {
      // SQLite's planner weighs a range bound as a strong filter: it reads the range and sorts by itself.
      expect(ranged.plan).toMatch(/appointments_status_starts_idx \(account_id=\? AND status=\? AND starts_at>\?\)/);
      return;
    }
    expect(ranged.plan, ranged.plan).toMatch(/"Index Cond":"[^"]*status = [^"]*starts_at >= /);
    // What it replaces: the walk of the status' id order, the range checked row by row.
    const plain = await planned(-1);
    expect(plain.plan, plain.plan).toMatch(/"Index Name":"appointments_status_idx"[^}]*"Filter":"[^"]*starts_at >= /);
    expect(ranged.res.data).toEqual(plain.res.data);
  });

  test('without a sort the range’s index yields the page: no sort step, on a big clinic’s statistics', async () => {
    const { db, statements } = recordingDb(t.server);
    const scope = { db, accountId: t.clinic.account.id, url: `http://${t.clinic.host}/v3/api/appointments` };
    await listRecords(resource('appointments'), scope, {
      status: 'eq:cancelled',
      starts_at: 'gte:2024-06-01T00:00:00',
    });
    const table = getTableName(resource('appointments').table);
    const page = statements.find((s) => / order by /i.test(s.sql) && s.sql.includes(`from "${table}"`))!;
    const plan = await planOf(t.server, page, table);
    expect(plan, plan).toContain('appointments_status_starts_idx');
    if (isPg) expect(pgSorts(plan), plan).toBe(false);
    else expect(plan).not.toContain('USE TEMP B-TREE');
  });
});
