/**
 * Deep offset pages from counts (server/list/offsets.ts, decision 254): a page past DEEP_OFFSET in the
 * default order of a counted list is the page plain OFFSET gives, through inserts, soft removals,
 * restores and deletes, before and after the changes are folded (offsets.compact), and it is read from
 * the counts, not by skipping rows. The clinic's patients have sparse ids, so their rows span many
 * ranges of 4,096 ids.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import type pg from 'pg';
import type { Db } from '../../db/client';
import { isPg } from '../../db/dialect';
import { offsetCountChanges, offsetCounts, patients } from '../../db/schema';
import { compactOffsetCounts } from '../jobs/offset-counts';
import { DEEP_OFFSET, listRecords } from '../list/engine';
import { countsKept } from '../list/offsets';
import { RESOURCES } from '../resources';
import { onCitusRun } from './support/citus-routing';
import { recordingDb } from './support/recording-db';
import { useClinic } from './helpers';

const t = useClinic();
const db = () => t.server.app.db;
const account = () => t.clinic.account.id;
/** A write through the handle's writer (on SQLite the read connection is read-only). */
const write = (fn: (tx: Db) => Promise<unknown>) => db().transaction(fn);

const ROWS = 3_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Subplan Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}
// Far above any id PostgreSQL's sequence gives in the suite; spread over ~40 ranges of 4,096 ids.
let nextId = 2 ** 40 + Math.floor(Math.random() * 1_000_000) * 2 ** 20;

async function addPatients(n: number, gap = 53) {
  // The suite's files share the SQLite file, where a new row takes the highest id + 1: other files' patients
  // follow ours, so each batch starts well above the table's highest id.
  const [{ top }] = await db()
    .db.select({ top: sql<number>`max(${patients.id})` })
    .from(patients);
  nextId = Math.max(nextId, Number(top ?? 0) + 1_000_000);
  const now = new Date().toISOString();
  const rows = Array.from({ length: n }, () => ({
    id: (nextId += 1 + Math.floor(Math.random() * gap)),
    account_id: account(),
    first_name: 'Deep',
    last_name: 'Offset',
    blocked: false,
    communication_preferences: {},
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < rows.length; i += 500) await write((tx) => tx.insert(patients).values(rows.slice(i, i + 500)));
  return rows.map((r) => r.id);
}

/** The ids plain OFFSET gives for the page, read from the table itself. */
async function expectedIds(page: number, size: number): Promise<number[]> {
  const rows = await db()
    .db.select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.account_id, account()), isNull(patients.deleted_at)))
    .orderBy(patients.id)
    .limit(size)
    .offset((page - 1) * size);
  return rows.map((r) => Number(r.id));
}

async function servedIds(page: number, size: number): Promise<number[]> {
  const res = await t.api.get(`/patients?page=${page}&page_size=${size}`);
  expect(res.status).toBe(200);
  expect(res.body.meta.current_page).toBe(page);
  return res.body.data.map((p: { id: number }) => p.id);
}

const PAGES: [number, number][] = [
  [Math.ceil((DEEP_OFFSET.rows + 1) / 100) + 1, 100], // the first deep page
  [15, 100],
  [29, 100],
  [30, 100], // the last, part full
  [31, 100], // past the end: empty
  [60, 50],
  [117, 25],
  [2_000, 1], // a page of one, inside a range
];

async function expectEveryPageAsOffset() {
  for (const [page, size] of PAGES)
    expect(await servedIds(page, size), `page ${page} of ${size}`).toEqual(await expectedIds(page, size));
}

describe('deep offset pages of a counted list', () => {
  beforeAll(async () => {
    await addPatients(ROWS);
  });

  test('the database keeps the counts of the resources that declare them (not on a Citus cluster)', async () => {
    const counted = Object.values(RESOURCES)
      .filter((r) => r.countedOffsets)
      .map((r) => r.name);
    expect(counted.sort()).toEqual(['appointments', 'patients']);
    const onCitus =
      (
        await db()
          .all(sql`select 1 from pg_extension where extname = 'citus'`)
          .catch(() => [])
      ).length > 0;
    for (const r of Object.values(RESOURCES))
      expect(await countsKept(db().db, r), r.name).toBe(!!r.countedOffsets && !(isPg && onCitus));
  });

  test('/schema says which lists count their offsets', async () => {
    for (const r of Object.values(RESOURCES).filter((x) => x.list)) {
      const res = await t.api.get(`/schema/${r.name}`);
      expect(res.status, r.name).toBe(200);
      expect(res.body.data.paging.counted_offsets, r.name).toBe(['appointments', 'patients'].includes(r.name));
      expect(res.body.data.paging.offset_cost, r.name).toMatch(/counted_offsets: true/);
    }
  });

  test('are the pages plain OFFSET gives, before and after the changes are folded', async () => {
    await expectEveryPageAsOffset();
    await compactOffsetCounts(db());
    const [{ n }] = await db()
      .db.select({ n: sql<number>`count(*)` })
      .from(offsetCountChanges)
      .where(eq(offsetCountChanges.account_id, account()));
    expect(Number(n)).toBe(0);
    await expectEveryPageAsOffset();
  });

  test('through soft removals and restores (the API and direct), deletes and inserts, folded or not', async () => {
    const ids = await expectedIds(1, ROWS);
    // Removed through the API, as integrators do.
    for (const id of [ids[1_500], ids[1_501], ids[2_222]])
      expect((await t.api.delete(`/patients/${id}`)).status).toBe(204);
    await expectEveryPageAsOffset();
    // Soft removal and restore of many rows in one statement each, and rows deleted outright.
    const spread = ids.filter((_, i) => i % 37 === 5);
    await write((tx) =>
      tx.update(patients).set({ deleted_at: new Date().toISOString() }).where(inArray(patients.id, spread)),
    );
    await write((tx) =>
      tx.delete(patients).where(
        inArray(
          patients.id,
          ids.filter((_, i) => i % 101 === 7),
        ),
      ),
    );
    await expectEveryPageAsOffset();
    await compactOffsetCounts(db());
    await write((tx) =>
      tx
        .update(patients)
        .set({ deleted_at: null })
        .where(inArray(patients.id, spread.slice(0, 20))),
    );
    await addPatients(250, 3);
    await expectEveryPageAsOffset();
    await compactOffsetCounts(db());
    await expectEveryPageAsOffset();
  }, 90_000); // some 70 statements: ~25 s on a Citus cluster under load

  // A Citus cluster keeps no counts (its pages are plain OFFSET's, checked above).
  test.skipIf(onCitusRun)(
    'are read from the counts: a wrong count moves the page, the rows before it are not read (only on SQLite and one PostgreSQL)',
    async () => {
      const before = await servedIds(15, 100);
      // One row fewer counted in the first range: the page starts one row later than the table says.
      const [first] = await db()
        .db.select({ bucket: offsetCounts.bucket })
        .from(offsetCounts)
        .where(and(eq(offsetCounts.account_id, account()), eq(offsetCounts.entity, 'patients')))
        .orderBy(offsetCounts.bucket)
        .limit(1);
      const miscount = (delta: number) =>
        write((tx) =>
          tx
            .insert(offsetCountChanges)
            .values({ account_id: account(), entity: 'patients', bucket: first.bucket, delta }),
        );
      await miscount(-1);
      try {
        expect(await servedIds(15, 100)).toEqual([...before.slice(1), ...(await expectedIds(16, 100)).slice(0, 1)]);
      } finally {
        await miscount(1);
      }
      expect(await servedIds(15, 100)).toEqual(before);
    },
  );

  test.runIf(isPg && !onCitusRun)(
    'read a range of the index at most, not the rows before the page (only on one PostgreSQL)',
    async () => {
      const { db: recording, statements } = recordingDb(t.server);
      const query = { page: '28', page_size: '100' };
      const page = await listRecords(
        RESOURCES.patients,
        { db: recording, accountId: account(), url: 'http://x/' },
        query,
      );
      expect(page.data.map((p) => p.id)).toEqual(await expectedIds(28, 100));
      const statement = statements.find((s) => /offset_counts/.test(s.sql));
      expect(statement, statements.map((s) => s.sql).join('\n')).toBeDefined();
      const pool = (t.server.app.db as unknown as { pool: pg.Pool }).pool;
      await pool.query('analyze patients');
      // As planOf does: this clinic is most of the suite's table, where a big clinic is a small part of it.
      const client = await pool.connect();
      let rows: { 'QUERY PLAN': unknown }[];
      try {
        await client.query('begin');
        await client.query('set local enable_seqscan = off');
        ({ rows } = await client.query(`explain (analyze, format json) ${statement!.sql}`, statement!.params));
      } finally {
        await client.query('rollback');
        client.release();
      }
      // Every read of patients below a LIMIT (where an OFFSET skips) but the capped count's (an aggregate of
      // its own, up to 10,001 rows): the start's, at most a range's live rows (~75 here), and the page's
      // 100, where plain OFFSET reads the 2,700 rows before the page. (How the page's rows are then fetched
      // by id depends on the clinic's share of the table: by key in a big database.)
      const reads: number[] = [];
      const walk = (node: PlanNode, parent: string, inCount: boolean) => {
        const count = inCount || (node['Node Type'] === 'Aggregate' && node['Subplan Name'] !== undefined);
        if (!count && parent === 'Limit' && /^patients(_\d+)?$/.test(node['Relation Name'] ?? ''))
          reads.push(node['Actual Rows'] * node['Actual Loops']);
        for (const child of node.Plans ?? []) walk(child, node['Node Type'], count);
      };
      const plan = (rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan;
      walk(plan, '', false);
      expect(reads.length, JSON.stringify(plan)).toBe(2);
      expect(Math.max(...reads), JSON.stringify(plan)).toBeLessThan(400);
    },
  );
});
