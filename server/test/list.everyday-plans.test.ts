/**
 * The questions integrators ask a big clinic every day, declared on each resource (`everyday`: filters
 * compared with eq and a range), are read through one index that bounds the range and yields the order
 * (a range's default order, and asked explicitly, both directions): no sort step and no walk of another
 * index (EXPLAIN after fresh statistics; PostgreSQL with sorting and sequential scans discouraged). A page
 * then reads about the rows it returns, however many years of rows the clinic has. Generated from the
 * declarations, so a new question is proven the day it is declared; its index must be in db/schema.
 */
import { getTableName, sql } from 'drizzle-orm';
import { getTableConfig as pgTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { isPg } from '../../db/dialect';
import { listRecords } from '../list/engine';
import { RESOURCES } from '../resources';
import type { EverydayQuestion, Resource } from '../resources/define';
import { newClinic, useClinic } from './helpers';
import { planOf, pgSorts } from './support/plans';
import { recordingDb } from './support/recording-db';

const t = useClinic({ seed: true });

const QUESTIONS = (Object.values(RESOURCES) as Resource[]).flatMap((r) =>
  (r.everyday ?? []).flatMap((q) =>
    ['', ':asc', ':desc'].map((dir) => [r.name, q.asked, dir || '(default)', r, q, dir] as const),
  ),
);

/** The index on (account_id, …eq, range, id): its name, from the table's declaration. */
function indexFor(r: Resource, q: EverydayQuestion): string | undefined {
  const cols = ['account_id', ...[...q.eq, q.range, 'id'].map((a) => r.column(a)?.name)];
  const config = isPg ? pgTableConfig(r.table as PgTable) : sqliteTableConfig(r.table as unknown as SQLiteTable);
  return config.indexes.find((i) => {
    const names = (i.config.columns as unknown as { name?: string }[]).map((c) => c.name);
    return names.join() === cols.join();
  })?.config.name;
}

/**
 * Values the clinic holds: for each eq attribute the one of its values that is rarest in the whole table
 * (the selective question a diary or "cancellations" is; a value every other test file writes as well
 * would make two indexes cost the same, and the planner's pick a coin toss), and the range's whole span.
 */
async function valuesOf(r: Resource, q: EverydayQuestion): Promise<Record<string, string>> {
  const col = (a: string) => sql.identifier(r.column(a)!.name);
  // Instants as the API writes them (PostgreSQL hands raw timestamptz text to raw SQL).
  const text = (v: unknown) =>
    v instanceof Date || /^\d{4}-\d\d-\d\d \d\d:/.test(String(v)) ? new Date(v as string).toISOString() : String(v);
  const rarest = async (a: string) => {
    // Two plain queries, not a correlated one: on Citus the count reads every shard, the list one.
    const mine = await t.server.app.db.all<{ v: unknown }>(
      sql`select distinct ${col(a)} as v from ${r.table} where account_id = ${t.clinic.account.id} and ${col(a)} is not null`,
    );
    const counted = await Promise.all(
      mine.map(async ({ v }) => {
        const [n] = await t.server.app.db.all<{ n: unknown }>(
          sql`select count(*) as n from ${r.table} where ${col(a)} = ${v}`,
        );
        return { v, n: Number(n.n) };
      }),
    );
    counted.sort((x, y) => x.n - y.n || String(x.v).localeCompare(String(y.v)));
    return counted[0]?.v ?? null;
  };
  const eqValues = Object.fromEntries(await Promise.all(q.eq.map(async (a) => [a, await rarest(a)] as const)));
  const [span] = await t.server.app.db.all<Record<string, unknown>>(
    sql`select min(${col(q.range)}) as lo, max(${col(q.range)}) as hi from ${r.table} where account_id = ${t.clinic.account.id}`,
  );
  const row: Record<string, unknown> = { ...eqValues, ...span };
  expect(row.lo, `the seed has ${r.name} to ask about`).not.toBeNull();
  return {
    ...Object.fromEntries(q.eq.map((a) => [a, `eq:${text(row[a])}`])),
    [q.range]: `between:${text(row.lo)},${text(row.hi)}`,
  };
}

// A second clinic, so the tables never hold one clinic only (see list-order.index.test.ts).
beforeAll(async () => {
  await newClinic(t.server, { seed: true });
}, 60_000);

describe("a big clinic's everyday questions are read through one index, in its order", () => {
  test.each(QUESTIONS)('%s: %s, order %s', async (name, _asked, _order, r, q, dir) => {
    const index = indexFor(r, q);
    expect(index, `an index on (account_id, ${[...q.eq, q.range, 'id'].join(', ')}) in db/schema`).toBeDefined();
    const table = getTableName(r.table);
    const { db, statements } = recordingDb(t.server);
    const scope = { db, accountId: t.clinic.account.id, url: `http://${t.clinic.host}/v3/api/${name}` };
    const query = { page_size: '100', ...(await valuesOf(r, q)), ...(dir ? { sort: `${q.range}${dir}` } : {}) };
    const res = await listRecords(r, scope, query);
    expect(res.data.length).toBeGreaterThan(0);
    const page = statements.find((s) => s.sql.includes(`from "${table}"`) && / order by /i.test(s.sql));
    expect(page, 'the page statement').toBeDefined();
    const plan = await planOf(t.server, page!, table);
    expect(plan, plan).toContain(index);
    const range = r.column(q.range)!.name;
    if (isPg) {
      expect(pgSorts(plan), plan).toBe(false);
      // The range bounds the index scan (an Index Cond), not a filter applied row by row.
      expect(plan, plan).toMatch(new RegExp(`"Index Cond":"[^"]*${range} >= [^"]*${range} <= `));
    } else {
      expect(plan).not.toContain('USE TEMP B-TREE');
      expect(plan).toMatch(new RegExp(`USING (COVERING )?INDEX ${index} \\([^)]*${range}>\\? AND ${range}<\\?\\)`));
    }
  });
});
