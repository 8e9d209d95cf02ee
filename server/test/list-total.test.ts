/**
 * `meta.total` is bounded: exact up to EXACT_TOTAL_UP_TO matching records, and past it an estimate
 * (PostgreSQL: the planner's; SQLite: the matching ids' density over their range), marked
 * `total_estimated: true`, so an offset page of a big clinic does not count all of its rows. Either way a
 * filter that matches few records is exact, and the links follow the total.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { patients } from '../../db/schema';
import { isPg } from '../../db/dialect';
import { EXACT_TOTAL_UP_TO } from '../list/total';
import { newClinic, client, useClinic } from './helpers';

const MANY = EXACT_TOTAL_UP_TO + 2_000;
const t = useClinic();

beforeAll(async () => {
  const { db } = t.server.app;
  const now = new Date().toISOString();
  const columns = [
    patients.account_id,
    patients.created_at,
    patients.updated_at,
    patients.first_name,
    patients.last_name,
    patients.blocked,
    patients.communication_preferences,
    patients.metadata,
  ] as const;
  const row = (i: number) =>
    [t.clinic.account.id, now, now, 'Bulk', i < 3 ? 'Rare' : `Patient${i}`, false, {}, {}].map(
      (v, c) => columns[c]!.mapToDriverValue(v) as string | number | boolean,
    );
  await db.appendRows(
    patients,
    columns,
    Array.from({ length: MANY }, (_, i) => row(i)),
  );
}, 120_000);

it('counts exactly when the matching records are within the bound', async () => {
  const res = await t.api.get('/patients?last_name=eq:Rare&page_size=2');
  expect(res.status).toBe(200);
  expect(res.body.meta).toEqual({ current_page: 1, per_page: 2, total: 3, last_page: 2, total_estimated: false });
  expect(new URL(res.body.links.next).searchParams.get('page')).toBe('2');
});

it('a page past the end and an empty first page still say the total', async () => {
  // Past the end the page has no row to carry its statement's count (server/list/total.ts cappedCount).
  const past = await t.api.get('/patients?last_name=eq:Rare&page_size=2&page=7');
  expect(past.status).toBe(200);
  expect(past.body.data).toEqual([]);
  expect(past.body.meta).toEqual({ current_page: 7, per_page: 2, total: 3, last_page: 2, total_estimated: false });
  const none = await t.api.get('/patients?last_name=eq:Nobody&page_size=2');
  expect(none.body.meta).toEqual({ current_page: 1, per_page: 2, total: 0, last_page: 1, total_estimated: false });
});

it.runIf(isPg)('past the bound, PostgreSQL estimates the total and says so (only on PostgreSQL)', async () => {
  const res = await t.api.get('/patients?page_size=100');
  expect(res.status).toBe(200);
  expect(res.body.meta.total_estimated).toBe(true);
  expect(res.body.meta.total).toBeGreaterThan(EXACT_TOTAL_UP_TO);
  expect(res.body.meta.last_page).toBe(Math.ceil(res.body.meta.total / 100));
  expect(res.body.data).toHaveLength(100);
});

it.runIf(!isPg)(
  'past the bound, SQLite estimates from the matching ids, close to the total, and says so (only on SQLite)',
  async () => {
    const res = await t.api.get('/patients?page_size=100');
    expect(res.status).toBe(200);
    expect(res.body.meta.total_estimated).toBe(true);
    expect(res.body.meta.total).toBeGreaterThan(EXACT_TOTAL_UP_TO);
    expect(Math.abs(res.body.meta.total - MANY) / MANY).toBeLessThan(0.02);
    expect(res.body.meta.last_page).toBe(Math.ceil(res.body.meta.total / 100));
    // A filter over the same rows is estimated the same way; one matching within the bound stays exact.
    const bulk = await t.api.get('/patients?first_name=eq:Bulk&page_size=100');
    expect(bulk.body.meta.total_estimated).toBe(true);
    expect(Math.abs(bulk.body.meta.total - MANY) / MANY).toBeLessThan(0.02);
  },
);

it('a text search whose page is short knows its total without counting', async () => {
  const res = await t.api.get('/patients?last_name=contains:rar&page_size=10');
  expect(res.status).toBe(200);
  expect(res.body.meta).toEqual({ current_page: 1, per_page: 10, total: 3, last_page: 1, total_estimated: false });
  const second = await t.api.get('/patients?last_name=contains:rar&page_size=2&page=2');
  expect(second.body.meta).toMatchObject({ total: 3, last_page: 2, total_estimated: false });
});

it.runIf(isPg)(
  'a text search PostgreSQL expects to match past the bound is estimated, not counted (only on PostgreSQL)',
  async () => {
    await t.server.app.db.all(sql`analyze patients`);
    const res = await t.api.get('/patients?last_name=contains:atient&page_size=100');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    expect(res.body.meta.total_estimated).toBe(true);
    expect(res.body.meta.total).toBeGreaterThan(EXACT_TOTAL_UP_TO);
  },
);

it('another clinic counts only its own records', async () => {
  const other = await newClinic(t.server);
  const res = await client(t.server, other).get('/patients');
  expect(res.body.meta).toEqual({ current_page: 1, per_page: 25, total: 0, last_page: 1, total_estimated: false });
});
