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

export async function estimatedRows(db: Db, query: Explainable, values: Record<string, unknown>): Promise<number> {
  const { sql: text, params } = query.toSQL();
  const pool = (db as Db & { $client: pg.Pool }).$client;
  const r = await pool.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    `EXPLAIN (FORMAT JSON) ${text}`,
    fillPlaceholders(params, values),
  );
  return Math.round(r.rows[0]!['QUERY PLAN'][0].Plan['Plan Rows']);
}
