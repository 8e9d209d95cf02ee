/**
 * Every documented filter is either served by an index or documented as scanning the clinic's rows
 * (server/list/scans.ts derives which from the table's indexes). For every listed resource × filter ×
 * operator the declaration calls served, the database's own plan of the list engine's count statement
 * (sequential scans discouraged, fresh statistics) must read the filter's column from an index
 * condition: a filter that only rides along on the account's index would read every row of the clinic.
 * Then the refusal: a list whose filters all scan is a 422 on a clinic above SCAN_LIMIT.rows records,
 * and works below it; and /schema, OpenAPI and MCP's source state the same `scans`.
 */
import { getTableName } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { onCitus } from '../../db/citus';
import { isPg } from '../../db/dialect';
import { COUNT_SHORTCUTS } from '../list/total';
import { listRecords } from '../list/engine';
import { filterScans, SCAN_LIMIT } from '../list/scans';
import { RESOURCES } from '../resources';
import type { Resource } from '../resources/define';
import { filterOperators } from '../resources/describe';
import type { Field } from '../resources/fields';
import { newClinic, useClinic } from './helpers';
import { connectorCall, memberWith, ok } from './support/mcp-tools';
import type pg from 'pg';
import { recordingDb, type Captured } from './support/recording-db';

const t = useClinic({ seed: true });
beforeAll(() => newClinic(t.server, { seed: true }), 60_000);

/** A valid operand that few rows match, so the plan has every reason to use the filter's index. */
function operand(f: Field, op: string): string {
  const one = (low: boolean, second = false): string => {
    switch (f.kind) {
      case 'integer':
        return low ? '-5' : second ? '2000000001' : '2000000000';
      case 'money':
      case 'decimal':
        return low ? '0.00' : second ? '99999998.00' : '99999999.00';
      case 'timestamp':
        return low ? '1990-01-01T00:00:00Z' : second ? '2090-01-02T00:00:00Z' : '2090-01-01T00:00:00Z';
      case 'date':
        return low ? '1900-01-01' : second ? '2090-01-02' : '2090-01-01';
      case 'walltime':
        return low ? '1990-01-01T00:00:00' : second ? '2090-01-02T00:00:00' : '2090-01-01T00:00:00';
      case 'boolean':
        // The seeded rows are mostly true (active, bookable): false is the rare value.
        return second || op === 'in' ? 'false' : 'true';
      case 'enum':
        // Two of two values would match every row: then the same one twice.
        return f.values!.at(second && f.values!.length > 2 ? -2 : -1)!;
      default:
        return low ? '!' : second ? 'zzzzzy' : 'zzzzzz';
    }
  };
  if (op === 'null') return 'null';
  if (op === 'in') return `in:${one(false)},${one(false, true)}`;
  if (op === 'between') return `between:${one(false)},${one(false)}`;
  if (op === 'contains') return 'contains:zqzqz';
  return `${op}:${one(op === 'lt' || op === 'lte')}`;
}

const served = Object.values(RESOURCES)
  .filter((r) => r.list)
  .flatMap((r) =>
    Object.entries(r.filters as Record<string, Field>).flatMap(([attr, f]) =>
      filterOperators(f)
        .filter((op) => !filterScans(r, attr, f, op))
        // An enum of one value: `in` matches every row, so there is nothing for an index to narrow (eq is checked).
        .filter((op) => !(op === 'in' && f.values?.length === 1))
        .map((op) => [r.name, attr, op, r] as const),
    ),
  );

/**
 * The plan of `statement` over a session-private copy of `table` (a big clinic: every stored row many
 * times over, all the clinic's) that keeps only the indexes that could serve a filter on `column`: led
 * by (account_id, column), or by the column alone (unique and trigram indexes; for contains only those),
 * partial conditions and all. The copy shadows the table (pg_temp comes first in the search path), lives
 * on one connection of its own, and its indexes are rolled back after each plan: the shared table is
 * never locked. With sequential scans off, the plan then reads the filter from such an index or from none.
 */
let session: pg.PoolClient | undefined;
const copied = new Set<string>();
const shadowed = new Set<string>();

async function planWithIndexesOn(
  statement: Captured,
  table: string,
  column: string,
  op: string,
  accountId: number,
): Promise<string> {
  session ??= await (t.server.app.db as unknown as { pool: pg.Pool }).pool.connect();
  const client = session;
  if (!copied.has(table)) {
    if (!shadowed.has(table)) await client.query(`create temp table "${table}" (like public."${table}")`);
    const { rows: counted } = await client.query<{ n: number }>(`select count(*)::int as n from public."${table}"`);
    const times = Math.min(500, Math.ceil(10_000 / Math.max(1, counted[0].n)));
    await client.query(
      `insert into pg_temp."${table}" select c.* from public."${table}" c, generate_series(1, ${times})`,
    );
    await client.query(`update pg_temp."${table}" set account_id = $1`, [accountId]);
    await client.query(`analyze pg_temp."${table}"`);
    copied.add(table);
  }
  // On Citus a local table cannot be joined to a distributed one: the other tables the statement reads
  // (a parent's soft removal, the embeds) are shadowed too, by empty copies; the plan asked is this table's.
  if (await onCitus(t.server.app.db))
    for (const [, other] of statement.sql.matchAll(/\b(?:from|join)\s+"?([a-z_]+)"?/gi))
      if (other !== table && !copied.has(other) && !shadowed.has(other)) {
        await client.query(`create temp table "${other}" (like public."${other}")`);
        shadowed.add(other);
      }
  await client.query('begin');
  try {
    const { rows } = await client.query<{ def: string; cols: string[] }>(
      `select pg_get_indexdef(i.indexrelid) as def, array(select a.attname::text from unnest(i.indkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.n order by k.o) as cols
         from pg_index i where i.indrelid = 'public."${table}"'::regclass`,
    );
    for (const { def, cols } of rows) {
      // A trigram index is on an expression of the column (server/list/apostrophes.ts): no attribute names it.
      const onExpression = cols[0] === undefined && new RegExp(`\\(translate\\(${column},`).test(def);
      const candidate =
        (op !== 'contains' && cols[0] === 'account_id' && cols[1] === column) || cols[0] === column || onExpression;
      // Not unique: the copy holds each row many times.
      if (candidate)
        await client.query(
          def.replace(/^CREATE (UNIQUE )?INDEX (\S+) ON (ONLY )?public\./, 'CREATE INDEX copy_$2 ON pg_temp.'),
        );
    }
    await client.query('set local enable_seqscan = off');
    const { rows: plan } = await client.query(`explain (format json) ${statement.sql}`, statement.params);
    return JSON.stringify(plan[0]['QUERY PLAN']);
  } finally {
    await client.query('rollback');
  }
}

/**
 * Not behind a transaction pooler: the session-private copies are session state, and PgBouncer would hand
 * the server connection holding them (and their shadowing names) to other clients. The plans are the
 * database's, the same with or without the pooler.
 */
const pooled = process.env.DATABASE_POOLER === 'transaction';
describe.runIf(isPg && !pooled)(
  'filters declared served are read from an index (only on PostgreSQL without a transaction pooler)',
  () => {
    // The connection goes with its copies (temporary tables end with the session).
    afterAll(() => session?.release(true));

    test.each(served)('%s ?%s=%s', async (_name, attr, op, resource) => {
      const r = resource as Resource;
      const f = r.filters[attr];
      const { db, statements } = recordingDb(t.server);
      const value =
        attr === 'phone'
          ? `${op === 'in' ? 'in:+15550100,+15550101' : op === 'between' ? 'between:+15550100,+15550101' : op === 'null' ? 'null' : `${op}:+15550100`}`
          : operand(f, op);
      // Counted even when the page says the total (server/list/total.ts COUNT_SHORTCUTS): its plan is read.
      COUNT_SHORTCUTS.on = false;
      await listRecords(
        r,
        { db, accountId: t.clinic.account.id, url: 'http://x/', region: 'US' },
        { [attr]: value, page_size: '1' },
      ).finally(() => (COUNT_SHORTCUTS.on = true));
      const table = getTableName(r.table);
      const counted = statements.find((s) => s.sql.includes(`from "${table}"`) && /count\(/i.test(s.sql));
      expect(counted, 'the count statement').toBeDefined();
      const column = r.column(attr)!.name;
      const plan = await planWithIndexesOn(counted!, table, column, op, t.clinic.account.id);
      // The column inside an index scan's condition: the index narrows the rows to the filter's.
      const conds = [...plan.matchAll(/"Index Cond":"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
      expect(
        conds.some((c) => new RegExp(`\\b${column}\\b`).test(c)),
        plan,
      ).toBe(true);
    });
  },
);

describe('filters that scan are refused on big clinics only', () => {
  const limit = SCAN_LIMIT.rows;
  afterEach(() => {
    SCAN_LIMIT.rows = limit;
  });
  const patientCount = async () => (await t.api.get('/patients?page_size=1')).body.meta.total as number;

  test('a list filtered only by scanning filters is 422 invalid_input above the limit, naming the filter and an indexed one', async () => {
    SCAN_LIMIT.rows = (await patientCount()) - 1;
    const res = await t.api.get('/patients?sex=eq:female');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('invalid_input');
    expect(Object.keys(res.body.errors)).toEqual(['sex']);
    expect(res.body.message).toContain('sex=eq');
    expect(res.body.message).toContain('last_name');
    const meta = await t.api.get('/patients?metadata[crm]=eq:1');
    expect(meta.status).toBe(422);
    expect(Object.keys(meta.body.errors)).toEqual(['metadata[crm]']);
    // Scanning operators on an indexed attribute scan too, and so does a trigram search shorter than a trigram.
    expect((await t.api.get('/patients?last_name=ne:Smith')).status).toBe(422);
    expect((await t.api.get('/patients?last_name=contains:sm')).status).toBe(422);
    expect((await t.api.get('/patients?last_name=contains:smi')).status).toBe(200);
  });

  test('at the limit, and with a filter an index serves, the same filters work', async () => {
    const total = await patientCount();
    SCAN_LIMIT.rows = total - 1;
    const combined = await t.api.get('/patients?sex=eq:female&last_name=gte:A');
    expect(combined.status).toBe(200);
    for (const p of combined.body.data) expect(p.sex).toBe('female');
    SCAN_LIMIT.rows = total;
    const alone = await t.api.get('/patients?sex=eq:female&page_size=100');
    expect(alone.status).toBe(200);
    expect(alone.body.data.length).toBeGreaterThan(0);
    for (const p of alone.body.data) expect(p.sex).toBe('female');
  });

  test('indexed filters are never refused', async () => {
    SCAN_LIMIT.rows = 0;
    expect((await t.api.get('/patients?last_name=eq:Smith')).status).toBe(200);
    expect((await t.api.get('/patients')).status).toBe(200);
  });
});

describe('the documents state which filters scan', () => {
  test('/schema and OpenAPI list the same scanning operators, derived from the indexes', async () => {
    const schema = await t.api.get('/schema/patients');
    const described = schema.body.data;
    expect(schema.status).toBe(200);
    const doc = await t.api.get('/openapi.json');
    expect(doc.status).toBe(200);
    const params = doc.body.paths['/patients'].get.parameters as {
      name: string;
      description: string;
      'x-scans'?: string[];
    }[];
    const r = RESOURCES.patients as Resource;
    for (const [attr, f] of Object.entries(r.filters)) {
      const scans = filterOperators(f).filter((op) => filterScans(r, attr, f, op));
      expect(described.attributes[attr].scans, attr).toEqual(scans);
      const p = params.find((x) => x.name === attr)!;
      expect(p['x-scans'], attr).toEqual(scans);
      if (scans.length) expect(p.description).toContain("scans the clinic's rows");
    }
    expect(described.attributes.sex.scans).toEqual(filterOperators(r.filters.sex));
    expect(described.attributes.last_name.scans).not.toContain('eq');
  });

  test('MCP list_entity_types states the same scanning operators', async () => {
    const member = await memberWith(
      t,
      'receptionist',
      ['patients.read', 'appointments.read', 'billing.read'],
      'all',
      null,
    );
    const out = await ok(connectorCall(t, member), 'list_entity_types', {});
    const types = out.entity_types as { name: string; scans: Record<string, string[]> }[];
    for (const r of Object.values(RESOURCES).filter((x) => x.list) as Resource[]) {
      const expected = Object.fromEntries(
        Object.entries(r.filters).flatMap(([attr, f]) => {
          const ops = filterOperators(f).filter((op) => filterScans(r, attr, f, op));
          return ops.length ? [[attr, ops]] : [];
        }),
      );
      expect(types.find((x) => x.name === r.name)?.scans, r.name).toEqual(expected);
    }
  });
});
