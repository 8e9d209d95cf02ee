/**
 * The database's own plan of a recorded statement, for the tests that prove a query is served by an
 * index: PostgreSQL's EXPLAIN (JSON) with sorting and sequential scans discouraged after fresh statistics
 * of `table` (so a Sort node or a scan means no index serves it), SQLite's EXPLAIN QUERY PLAN details
 * (after fresh statistics too when asked: `sqliteStatistics`).
 */
import Database from '../../../db/sqlite-driver';
import { sql as drizzleSql } from 'drizzle-orm';
import type pg from 'pg';
import { sqlitePath } from '../../../db/client';
import { isPg } from '../../../db/dialect';
import type { TestServer } from '../helpers';
import type { Captured } from './recording-db';

export async function planOf(
  server: TestServer,
  { sql, params }: Captured,
  table: string,
  opts: { sqliteStatistics?: boolean } = {},
): Promise<string> {
  if (isPg) {
    const client = await (server.app.db as unknown as { pool: pg.Pool }).pool.connect();
    try {
      // Fresh statistics: other test files fill the shared database meanwhile, and a planner that thinks
      // one clinic is most of the table may read the order from the primary key instead.
      await client.query(`analyze "${table}"`);
      await client.query('begin');
      await client.query('set local enable_sort = off');
      await client.query('set local enable_seqscan = off');
      const { rows } = await client.query(`explain (format json) ${sql}`, params);
      await client.query('rollback');
      // A table partitioned by day (server/jobs/partitions.ts) is read through its partitions' indexes: named
      // here by the table's own index (and table) they belong to, as the tests name them.
      const { rows: parts } = await client.query<{ part: string; root: string }>(
        `select c.relname as part, r.relname as root from pg_class c join pg_class r on r.oid = pg_partition_root(c.oid)
         where c.relispartition and c.relnamespace = current_schema()::regnamespace`,
      );
      const roots = new Map(parts.map((p) => [p.part, p.root]));
      return JSON.stringify(rows[0]['QUERY PLAN']).replace(
        /"(Index Name|Relation Name)":"([^"]+)"/g,
        (whole, key: string, name: string) => (roots.has(name) ? `"${key}":"${roots.get(name)}"` : whole),
      );
    } finally {
      client.release();
    }
  }
  type Conn = { prepare(s: string): { all(...p: unknown[]): { detail: string }[] }; close(): void };
  const reader = (server.app.db as unknown as { db: { $client: Conn } }).db.$client;
  // sqliteStatistics: fresh statistics of `table` (ANALYZE on the writer), read by a connection opened after
  // them, as the server's reader reads those PRAGMA optimize took when it started (db/client.ts).
  let conn = reader;
  if (opts.sqliteStatistics) {
    await server.app.db.transaction(async (tx) => {
      (tx as unknown as { run(q: unknown): unknown }).run(drizzleSql.raw(`analyze "${table}"`));
    });
    conn = new Database(sqlitePath(process.env.DATABASE_URL!), { readonly: true }) as unknown as Conn;
  }
  try {
    return conn
      .prepare(`explain query plan ${sql}`)
      .all(...params)
      .map((r) => r.detail)
      .join('; ');
  } finally {
    if (conn !== reader) conn.close();
  }
}

/** A PostgreSQL plan with a sort step. */
export const pgSorts = (plan: string) => /"Node Type":"(Incremental )?Sort"/.test(plan);
