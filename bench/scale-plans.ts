/**
 * `tsx bench/scale.ts pg plans`: after the scale rows, each list resource's default first page, offset and
 * cursor, as PostgreSQL runs it on the scale clinic: the list engine's own statements (page and capped
 * count), each through EXPLAIN (ANALYZE), summed up as its plan shape (nodes and the indexes they read),
 * the rows its scans read and its execution time. A markdown table on stdout, for the closing note of a
 * change to the list engine or the indexes.
 */
import { getTableName } from 'drizzle-orm';
import type pg from 'pg';
import { openDb } from '../db/client';
import { listRecords } from '../server/list/engine';
import { RESOURCES } from '../server/resources';
import type { Resource } from '../server/resources/define';
import type { TestServer } from '../server/test/helpers';
import { recordingDb, type Captured } from '../server/test/support/recording-db';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

/** "Limit ← Index Scan Backward appointments_pkey": node types, with what each scan reads. */
function shape(n: PlanNode): string {
  const scan = /Scan/.test(n['Node Type']) ? ` ${n['Index Name'] ?? n['Relation Name'] ?? ''}` : '';
  const kids = (n.Plans ?? []).map(shape);
  const own = `${n['Node Type']}${scan}`;
  return kids.length === 0 ? own : kids.length === 1 ? `${own} ← ${kids[0]}` : `${own} ← (${kids.join(' + ')})`;
}

/** Rows every scan node returned, over all its loops. */
const rowsRead = (n: PlanNode): number =>
  (/Scan/.test(n['Node Type']) ? n['Actual Rows'] * n['Actual Loops'] : 0) +
  (n.Plans ?? []).reduce((a, c) => a + rowsRead(c), 0);

export async function planTable(url: string, accountId: number): Promise<string> {
  const handle = await openDb(url);
  const pool = (handle as unknown as { pool: pg.Pool }).pool;
  const lines = ['| resource | page | statement | plan | rows read | ms |', '|---|---|---|---|---|---|'];
  try {
    for (const r of Object.values(RESOURCES).filter((x) => x.list) as Resource[]) {
      const table = getTableName(r.table);
      for (const [page, query] of [
        ['offset 1', { page_size: '25' }],
        ['cursor 1', { page_size: '25', cursor: '' }],
      ] as const) {
        const { db, statements } = recordingDb({ app: { db: handle } } as unknown as TestServer);
        const scope = { db, accountId, url: `http://scale/v3/api/${r.name}` };
        await listRecords(r, scope, { ...query });
        statements.length = 0;
        await listRecords(r, scope, { ...query });
        const own = statements.filter((s: Captured) => s.sql.includes(`from "${table}"`));
        for (const s of own) {
          if (/^EXPLAIN/i.test(s.sql)) {
            // meta.total past the exact bound: the planner's estimate, planned and not run (db/estimate.ts).
            const started = performance.now();
            await pool.query(s.sql, s.params);
            lines.push(
              `| ${r.name} | ${page} | estimate | (planned, not run) | 0 | ${(performance.now() - started).toFixed(2)} |`,
            );
            continue;
          }
          const { rows } = await pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${s.sql}`, s.params);
          const [plan] = rows[0]['QUERY PLAN'] as [{ Plan: PlanNode; 'Execution Time': number }];
          const what = /count\(/i.test(s.sql) ? 'count' : 'page';
          lines.push(
            `| ${r.name} | ${page} | ${what} | ${shape(plan.Plan)} | ${rowsRead(plan.Plan).toLocaleString('en')} | ${plan['Execution Time'].toFixed(2)} |`,
          );
        }
      }
    }
  } finally {
    await handle.close();
  }
  return lines.join('\n');
}
