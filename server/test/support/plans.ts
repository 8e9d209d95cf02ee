/**
 * The database's own plan of a recorded statement, for the tests that prove a query is served by an
 * index: PostgreSQL's EXPLAIN (JSON) with sorting and sequential scans discouraged after fresh statistics
 * of `table` (so a Sort node or a scan means no index serves it), SQLite's EXPLAIN QUERY PLAN details after
 * fresh statistics of `table` too, as the job statistics.refresh keeps them in production (decision 256): the
 * suite's shared file grows while its servers run, and a plan read by the statistics a server loaded when
 * the file held a few rows is the plan of a base that small (walking the rowid), not the one in question.
 *
 * On Citus the coordinator's plan is a Custom Scan whose task carries the worker's plan of the shard:
 * that plan is read in its place (the settings above are sent to the worker with the statement), and
 * shards and their indexes are named by the table and index they belong to (`patients_102008` →
 * `patients`), so the same assertions hold. Whether a statement is one task is citus.layout's test.
 */
import Database from '../../../db/sqlite-driver';
import { sql as drizzleSql } from 'drizzle-orm';
import type pg from 'pg';
import { execIn, sqlitePath } from '../../../db/client';
import { onCitus } from '../../../db/citus';
import { isPg } from '../../../db/dialect';
import type { TestServer } from '../helpers';
import type { Captured } from './recording-db';

export async function planOf(server: TestServer, { sql, params }: Captured, table: string): Promise<string> {
  if (isPg) {
    const client = await (server.app.db as unknown as { pool: pg.Pool }).pool.connect();
    try {
      // Fresh statistics: other test files fill the shared database meanwhile, and a planner that thinks
      // one clinic is most of the table may read the order from the primary key instead.
      await client.query(`analyze "${table}"`);
      await client.query('begin');
      const citus = await onCitus(server.app.db);
      if (citus) {
        await client.query(`set local citus.propagate_set_commands = 'local'`);
        // A shard holds a few clinics, and the suite's other files leave some of them mostly voided or
        // removed: there a bitmap of the clinic's rows by primary key, filtered, costs no more than the
        // partial index the plan tests look for. Plain index scans keep the choice the index's.
        await client.query('set local enable_bitmapscan = off');
      }
      await client.query('set local enable_sort = off');
      await client.query('set local enable_seqscan = off');
      const { rows } = await client.query(`explain (format json) ${sql}`, params);
      await client.query('rollback');
      let plan = JSON.stringify(rows[0]['QUERY PLAN']);
      if (citus) plan = await shardPlanOf(client, rows[0]['QUERY PLAN']);
      // A table partitioned by day (server/jobs/partitions.ts) is read through its partitions' indexes: named
      // here by the table's own index (and table) they belong to, as the tests name them.
      const { rows: parts } = await client.query<{ part: string; root: string }>(
        `select c.relname as part, r.relname as root from pg_class c join pg_class r on r.oid = pg_partition_root(c.oid)
         where c.relispartition and c.relnamespace = current_schema()::regnamespace`,
      );
      const roots = new Map(parts.map((p) => [p.part, p.root]));
      return plan.replace(/"(Index Name|Relation Name)":"([^"]+)"/g, (whole, key: string, name: string) =>
        roots.has(name) ? `"${key}":"${roots.get(name)}"` : whole,
      );
    } finally {
      client.release();
    }
  }
  type Conn = { prepare(s: string): { all(...p: unknown[]): { detail: string }[] }; close(): void };
  // Fresh statistics of `table` (ANALYZE on the writer), read by a connection opened after them.
  await server.app.db.transaction((tx) => execIn(tx, drizzleSql.raw(`analyze "${table}"`)));
  const conn = new Database(sqlitePath(process.env.DATABASE_URL!), { readonly: true }) as unknown as Conn;
  try {
    return conn
      .prepare(`explain query plan ${sql}`)
      .all(...params)
      .map((r) => r.detail)
      .join('; ');
  } finally {
    conn.close();
  }
}

type PlanNode = { 'Distributed Query'?: { Job: { Tasks: { 'Remote Plan': unknown }[] } }; Plans?: PlanNode[] };

/** The plan with each Citus scan replaced by its first task's worker plan, shards named by their table. */
async function shardPlanOf(client: pg.PoolClient, plan: unknown): Promise<string> {
  const unwrap = (node: PlanNode): PlanNode => {
    const task = node['Distributed Query']?.Job.Tasks[0];
    if (task) return unwrap((task['Remote Plan'] as unknown[]).flat(2).map((r) => (r as { Plan: PlanNode }).Plan)[0]);
    return node.Plans ? { ...node, Plans: node.Plans.map(unwrap) } : node;
  };
  const top = plan as { Plan: PlanNode }[];
  const text = JSON.stringify(top.map((p) => ({ ...p, Plan: unwrap(p.Plan) })));
  const { rows } = await client.query<{ id: string }>('select shardid::text as id from pg_dist_shard');
  const shards = new Set(rows.map((r) => r.id));
  return text.replace(
    /"(Index Name|Relation Name)":"([^"]+)_(\d+)"/g,
    (whole, key: string, name: string, id: string) => (shards.has(id) ? `"${key}":"${name}"` : whole),
  );
}

/** A PostgreSQL plan with a sort step. */
export const pgSorts = (plan: string) => /"Node Type":"(Incremental )?Sort"/.test(plan);
