/**
 * What Citus makes of the statements a test saw sent (issue 40: a clinic's requests are router queries).
 * `recordStatements` records every statement any PostgreSQL client of this process sends (the in-process
 * server's pool and its transactions included) until stopped; `notRouted` explains each on the
 * coordinator and says what is wrong with it: more than one task (a statement on several shards), or a
 * write to a reference table (replicated: a commit on every node). A statement on the coordinator's own
 * tables, or one that reads no table, has no Citus task and is fine.
 */
import pg from 'pg';
import { CLUSTER_ROLES } from '../../../db/citus';
import type { Captured } from './recording-db';

/** Whether this run's database is a Citus cluster (the Citus stage: CITUS_WORKERS and a PostgreSQL URL). */
export const onCitusRun = !!process.env.CITUS_WORKERS && /^postgres(ql)?:/.test(process.env.DATABASE_URL ?? '');

type Query = (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) => unknown;

export function recordStatements(): { statements: Captured[]; stop(): void } {
  const statements: Captured[] = [];
  const proto = pg.Client.prototype as unknown as { query: Query };
  const original = proto.query;
  proto.query = function (config, values, callback) {
    const text = typeof config === 'string' ? config : (config as { text?: string } | undefined)?.text;
    const params = Array.isArray(values) ? values : (config as { values?: unknown[] } | undefined)?.values;
    if (text) statements.push({ sql: text, params: params ?? [] });
    return original.call(this, config, values, callback);
  };
  return { statements, stop: () => void (proto.query = original) };
}

const REFERENCE: string[] = Object.entries(CLUSTER_ROLES)
  .filter(([, r]) => r.role === 'reference')
  .map(([name]) => name);

export async function notRouted(pool: pg.Pool, statements: Captured[]): Promise<string[]> {
  const problems: string[] = [];
  for (const s of statements) {
    // Transaction control, settings, savepoints and the planner's estimates (EXPLAIN) read no table.
    if (!/^\s*(select|insert|update|delete|with)\b/i.test(s.sql)) continue;
    const target = /^\s*(?:insert\s+into|update|delete\s+from)\s+"?(\w+)"?/i.exec(s.sql)?.[1];
    if (target && REFERENCE.includes(target)) problems.push(`writes the reference table ${target}: ${s.sql}`);
    const plan = JSON.stringify((await pool.query(`explain (format json) ${s.sql}`, s.params)).rows);
    const tasks = [...plan.matchAll(/"Task Count":(\d+)/g)].map((m) => Number(m[1]));
    if (tasks.some((n) => n > 1)) problems.push(`${Math.max(...tasks)} tasks: ${s.sql}`);
  }
  return problems;
}
