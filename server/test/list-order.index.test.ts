/**
 * Every list order is served by an index, generated from the resource declarations: for each listed
 * resource, its default order and every sortable field in both directions, the first page and a cursor
 * page are planned by the database itself without a sort step (PostgreSQL: EXPLAIN with sorting and
 * sequential scans discouraged, so a Sort node means no index yields the order; SQLite: EXPLAIN QUERY
 * PLAN without "USE TEMP B-TREE FOR ORDER BY"). A page then reads only the rows it returns, however
 * large the clinic. A new sortable field fails here until its index exists.
 */
import { getTableName } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { isPg } from '../../db/dialect';
import { listRecords } from '../list/engine';
import { RESOURCES } from '../resources';
import type { Resource } from '../resources/define';
import { newClinic, useClinic } from './helpers';
import { planOf, pgSorts } from './support/plans';
import { recordingDb, type Captured } from './support/recording-db';

const t = useClinic({ seed: true });
// A second clinic, so the tables never hold one clinic only (run alone, the planner would rightly read
// a lone clinic's order from the primary key).
beforeAll(() => newClinic(t.server, { seed: true }), 60_000);

/** Why the database would sort this statement's rows, or null when an index yields the order. */
async function sortStep(statement: Captured, table: string): Promise<string | null> {
  const plan = await planOf(t.server, statement, table);
  // PostgreSQL: a sort step, or an order read from an index scan bounded neither by the account nor by the
  // cursor's keyset bound (every clinic's rows read). A cursor page near the end of the ids may rightly be
  // read from the primary key from its bound. SQLite: a temporary B-tree for the order.
  if (isPg) return pgSorts(plan) || !/"Index Cond":"[^"]*(account_id = | >= | <= )/.test(plan) ? plan : null;
  return plan.includes('USE TEMP B-TREE FOR ORDER BY') ? plan : null;
}

const orders = Object.values(RESOURCES)
  .filter((r) => r.list)
  .flatMap((r) => [
    [r.name, '(default)', r] as const,
    ...Object.entries(r.fields)
      .filter(([, f]) => f.sortable)
      .flatMap(([attr]) => [[r.name, `${attr}:asc`, r] as const, [r.name, `${attr}:desc`, r] as const]),
  ]);

describe('every list order is served by an index (first page and cursor page)', () => {
  test.each(orders)('%s sort=%s', async (_name, sort, resource) => {
    const r = resource as Resource;
    const { db, statements } = recordingDb(t.server);
    const scope = { db, accountId: t.clinic.account.id, url: `http://${t.clinic.host}/v3/api/${r.name}` };
    const query = { page_size: '1', cursor: '', ...(sort === '(default)' ? {} : { sort }) };
    const first = await listRecords(r, scope, query);
    const next = first.links.next ? new URL(first.links.next).searchParams.get('cursor') : null;
    if (next) await listRecords(r, scope, { ...query, cursor: next });
    // The page's own statement (embeds are loaded by id, apart from it).
    const ordered = statements.filter(
      (s) => s.sql.includes(`from "${getTableName(r.table)}"`) && / order by /i.test(s.sql),
    );
    expect(ordered.length).toBeGreaterThan(0);
    for (const statement of ordered) expect(await sortStep(statement, getTableName(r.table)), statement.sql).toBeNull();
  });
});
