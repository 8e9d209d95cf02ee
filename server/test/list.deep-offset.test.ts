/**
 * Deep offset pages (server/list/engine.ts DEEP_OFFSET) read the page's ids through the order's index
 * and then the page's rows: the same records in the same order as the plain OFFSET statement, for every
 * listed resource in its default order and every sortable field's, with filters; the statement is the
 * deferred one, and on PostgreSQL its ids are read in the order's index (on a big clinic an index-only
 * scan: docs/decisions.md, Lists).
 */
import { getTableName } from 'drizzle-orm';
import { afterEach, describe, expect, test } from 'vitest';
import { isPg } from '../../db/dialect';
import { DEEP_OFFSET, listRecords } from '../list/engine';
import { RESOURCES } from '../resources';
import type { Resource } from '../resources/define';
import { useClinic } from './helpers';
import { planOf } from './support/plans';
import { recordingDb } from './support/recording-db';

const t = useClinic({ seed: true });
/** The deferred statement: the page's rows among ids selected on their own. */
const DEFERRED = /"id" in \(select "id" from /;
const usual = DEEP_OFFSET.rows;
afterEach(() => {
  DEEP_OFFSET.rows = usual;
});

const listed = (Object.values(RESOURCES) as Resource[]).filter((r) => r.list);
const cases = listed.flatMap((r) => [
  [r.name, '(default)', r] as const,
  ...Object.entries(r.fields)
    .filter(([, f]) => f.sortable)
    .map(([attr]) => [r.name, `${attr}:desc`, r] as const),
]);

async function pageOf(r: Resource, query: Record<string, string>, deepFrom: number) {
  DEEP_OFFSET.rows = deepFrom;
  const { db, statements } = recordingDb(t.server);
  const scope = { db, accountId: t.clinic.account.id, url: `http://${t.clinic.host}/v3/api/${r.name}` };
  const res = await listRecords(r, scope, query);
  return { ids: res.data.map((d) => (d as { id: number }).id), meta: res.meta, statements };
}

describe('deep offset pages', () => {
  test.each(cases)('%s sort=%s: pages 2 and 3 are the plain statement’s records, in its order', async (_n, sort, r) => {
    for (const page of ['2', '3']) {
      const query = { page, page_size: '2', ...(sort === '(default)' ? {} : { sort }) };
      const plain = await pageOf(r as Resource, query, Number.MAX_SAFE_INTEGER);
      const deep = await pageOf(r as Resource, query, 1);
      expect(deep.ids).toEqual(plain.ids);
      expect(deep.meta).toEqual(plain.meta);
      expect(deep.statements.some((s) => DEFERRED.test(s.sql))).toBe(true);
      expect(plain.statements.some((s) => DEFERRED.test(s.sql))).toBe(false);
    }
  });

  test('with filters and a range: the same records as the plain statement', async () => {
    const query = { page: '2', page_size: '3', starts_at: 'gte:2000-01-01T00:00:00', sort: 'starts_at:desc' };
    const plain = await pageOf(RESOURCES.appointments as unknown as Resource, query, Number.MAX_SAFE_INTEGER);
    const deep = await pageOf(RESOURCES.appointments as unknown as Resource, query, 1);
    expect(plain.ids.length).toBe(3);
    expect(deep.ids).toEqual(plain.ids);
  });

  test('page 1 stays the plain statement', async () => {
    const { statements } = await pageOf(RESOURCES.patients as unknown as Resource, { page_size: '5' }, 1);
    expect(statements.some((s) => DEFERRED.test(s.sql))).toBe(false);
  });

  test.runIf(isPg)('the ids are read in the order’s index, with no sort step (only on PostgreSQL)', async () => {
    const r = RESOURCES.appointments as unknown as Resource;
    const { statements } = await pageOf(r, { page: '3', page_size: '2', sort: 'starts_at:desc' }, 1);
    const deferred = statements.find((s) => DEFERRED.test(s.sql))!;
    const plan = await planOf(t.server, deferred, getTableName(r.table));
    // The ids' Limit reads appointments_starts_at_idx; the outer sort of the page's own rows is allowed.
    expect(plan, plan).toMatch(/"Node Type":"Limit".*"Index Name":"appointments_starts_at_idx"/);
    expect(plan, plan).not.toMatch(/Seq Scan/);
  });
});
