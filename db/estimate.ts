/**
 * PostgreSQL's planner estimate of how many rows a query returns: what EXPLAIN says, without running
 * it (a fraction of a millisecond where counting a big clinic's rows costs hundreds). For `meta.total`
 * past the exact bound (server/list/total.ts).
 */
import { fillPlaceholders } from 'drizzle-orm';
import type pg from 'pg';
import type { Db } from './client';

interface Explainable {
  toSQL(): { sql: string; params: unknown[] };
}

interface PlanNode {
  'Plan Rows': number;
  'Custom Plan Provider'?: string;
  'Distributed Query'?: { Job: { 'Task Count': number; Tasks: { 'Remote Plan': { Plan: PlanNode }[][] }[] } };
}

export async function estimatedRows(db: Db, query: Explainable, values: Record<string, unknown>): Promise<number> {
  const { sql: text, params } = query.toSQL();
  const pool = (db as Db & { $client: pg.Pool }).$client;
  const r = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    `EXPLAIN (FORMAT JSON) ${text}`,
    fillPlaceholders(params, values),
  );
  return Math.round(rowsOf(r.rows[0]!['QUERY PLAN'][0].Plan));
}

/**
 * The plan's estimate. On a Citus cluster the coordinator's node (Custom Scan, Citus Adaptive) says 0 rows:
 * the estimate is the shard's own plan, in the one task a clinic's query routes to (issue 40).
 */
function rowsOf(plan: PlanNode): number {
  const job = plan['Custom Plan Provider']?.startsWith('Citus') ? plan['Distributed Query']?.Job : undefined;
  if (!job || job.Tasks.length === 0) return plan['Plan Rows'];
  // EXPLAIN shows one task of many by default: the others are taken to be like it.
  const shown = job.Tasks.reduce((sum, task) => sum + rowsOf(task['Remote Plan'][0][0].Plan), 0);
  return (shown * job['Task Count']) / job.Tasks.length;
}
