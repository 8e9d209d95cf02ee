/**
 * What the records that follow a soft-removed parent are hidden by (server/resources/follows.ts): every list
 * of such a resource looks the parent up among the clinic's gone ones (a deleted patient, a voided invoice)
 * through that parent's partial index (a probe of a small index per row read) instead of proving each row's
 * parent live through its key. (SQLite names the index: it would rather probe the rowid, 5x slower.)
 * Generated from the resources that declare `follows`, so a new one is covered the day it is added.
 */
import { getTableName, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { isPg } from '../../db/dialect';
import { listRecords } from '../list/engine';
import { COUNT_SHORTCUTS } from '../list/total';
import { RESOURCES } from '../resources';
import type { Resource } from '../resources/define';
import { softRoot } from '../resources/follows';
import { useClinic } from './helpers';
import { planOf } from './support/plans';
import { recordingDb } from './support/recording-db';

const t = useClinic({ seed: true });

const hidden = (Object.values(RESOURCES) as Resource[]).flatMap((r) => {
  const soft = r.list && r.follows && softRoot(r.follows);
  return soft ? [[r.name, soft.gone.index, soft.root.name, r] as const] : [];
});

test('the resources hidden with their patient or invoice are found', () => {
  expect(hidden.map(([name]) => name).sort()).toEqual([
    'addresses',
    'clinical_notes',
    'files',
    'line_items',
    'numbers',
    'patient_log_tags',
    'patient_logs',
  ]);
});

const listed = async (r: Resource, query: Record<string, string> = {}) => {
  const { db, statements } = recordingDb(t.server);
  const res = await listRecords(
    r,
    { db, accountId: t.clinic.account.id, url: `http://${t.clinic.host}/v3/api/${r.name}` },
    query,
  );
  return { res, own: statements.filter((s) => s.sql.includes(`from "${getTableName(r.table)}"`)) };
};

test.each(hidden)('%s: the page and its count probe %s', async (_name, index, parent, r) => {
  // Counted as any list is (server/list/total.ts COUNT_SHORTCUTS): its plan is read. On PostgreSQL the
  // count is inside the page's statement (cappedCount), so that one plan probes the index twice.
  COUNT_SHORTCUTS.on = false;
  const { own } = await listed(r).finally(() => (COUNT_SHORTCUTS.on = true));
  expect(own.length).toBe(isPg ? 1 : 2);
  // Fresh statistics of the listed table too (PostgreSQL): other files fill the shared database, and a planner that
  // expects one row of it reads the clinic's gone parents once instead of probing their index per row.
  if (isPg) await t.server.app.db.all(sql.raw(`analyze "${getTableName(r.table)}"`));
  for (const statement of own) {
    const plan = await planOf(t.server, statement, parent);
    const probes = plan.match(isPg ? new RegExp(`"Index Name":"${index}"`, 'g') : new RegExp(`INDEX ${index}`, 'g'));
    expect(probes?.length ?? 0, `${statement.sql}\n${plan}`).toBe(isPg ? 2 : 1);
    expect(plan, statement.sql).not.toMatch(
      isPg ? new RegExp(`"Index Name":"${parent}_pkey"`) : new RegExp(`${parent} USING INTEGER PRIMARY KEY`),
    );
  }
});

test.runIf(isPg)('a short page of such a list is its own total: no count is made (only on PostgreSQL)', async () => {
  const r = RESOURCES.numbers as unknown as Resource;
  const first = (await listed(r)).res.data[0] as { patient_id: number };
  const { res, own } = await listed(r, { patient_id: `eq:${first.patient_id}`, page_size: '100' });
  expect(res.data.length).toBeGreaterThan(0);
  expect(res.data.length).toBeLessThan(100);
  expect(res.meta).toMatchObject({ total: res.data.length, total_estimated: false });
  expect(own.filter((s) => /count\(/i.test(s.sql))).toEqual([]);
});
