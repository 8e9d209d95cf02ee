/**
 * The database handle for either dialect. `Db` is typed as drizzle's node-postgres database (see
 * db/dialect.ts for why); on SQLite the better-sqlite3 drizzle instance stands behind the same type.
 */
import fs from 'node:fs';
import { DIR_MODE, tighten } from './private-files';
import path from 'node:path';
import Database, { type SqliteDatabase, type SqliteStatement } from './sqlite-driver';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migrateSqlite } from 'drizzle-orm/better-sqlite3/migrator';
import { getTableName, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { distributeNew } from './citus';
import { committed, unmarked } from './commits';
import { dialectOf, isPg, type Dialect } from './dialect';
import { unnamedStatements } from './prepared';
import * as schema from './schema';

export type Db = NodePgDatabase<typeof schema>;

/**
 * int8 (ids, references, count(*)) read as JS numbers everywhere, not only where drizzle's bigint columns
 * decode them: raw `sql` selects, `RETURNING` through db.all, sql`…` fields without mapWith, the list's
 * array rows. It has to be pg's global registry: drizzle's node-postgres session passes every query its own
 * type parsers, falling back to the global ones (a Pool's `types` option never reaches drizzle's queries).
 * A value past 2^53 − 1 stays the exact decimal string instead of a silently rounded number (no id gets
 * there: the API refuses ids above Number.MAX_SAFE_INTEGER, server/resources/fields.ts ID_MAX).
 */
export const parseInt8 = (text: string): number | string => {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
};
pg.types.setTypeParser(pg.types.builtins.INT8, parseInt8);

/** A value appendRows binds: what a column of ours holds. */
export type Scalar = string | number | boolean | null;

const APPEND_CHUNK = 100;
/** Pages of WAL past which a commit copies it back into the base (4 KiB pages: ~40 MiB). */
export const WAL_CHECKPOINT_PAGES = 10_000;
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  /** Runs `fn` in one transaction; the callback's `tx` is the only handle it may write through (on SQLite
   *  `db` is read-only: every write, however small, goes through here). */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /** Raw SQL returning rows, outside a transaction (dialect-specific SQL goes through here; inside one, allIn). */
  all<T = Record<string, unknown>>(query: SQL): Promise<T[]>;
  /**
   * Appends rows to a table in one transaction, with statements prepared once instead of a query built
   * per batch (the request log writes thousands of rows a second: built by drizzle, a row cost about
   * 15 µs of the event loop; this way about 3 on SQLite). `columns` and `table` are code, never input.
   */
  appendRows(table: PgTable, columns: readonly PgColumn[], rows: readonly (readonly Scalar[])[]): Promise<void>;
  /**
   * Brings the planner's statistics up to date with the tables' sizes; true when they changed. SQLite
   * only: PostgreSQL's autovacuum analyzes grown tables, and every session plans by what it finds.
   */
  refreshStatistics(): Promise<boolean>;

  close(): Promise<void>;
}

export const migrationsRoot = path.join(path.dirname(new URL(import.meta.url).pathname), 'migrations');

export function sqlitePath(url: string): string {
  return url.replace(/^file:/, '');
}

export interface OpenOptions {
  migrate?: boolean;
  poolSize?: number;
  /** Told of a pooled PostgreSQL connection lost (a database restart): the pool replaces it. */
  onIdleError?: (err: Error) => void;
  /**
   * PostgreSQL: a statement running longer is cancelled (SQLSTATE 57014). Below the request timeout, so
   * a query never keeps running for a request that was already answered 503. Migrations have none.
   */
  statementTimeoutMs?: number;
  /** `transaction`: PgBouncer (transaction pooling) in front; see server/env.ts DATABASE_POOLER. */
  pooler?: 'none' | 'transaction';
  /** SQLite: how long a write waits for another process's lock (SQLITE_BUSY after); 5 s by default. */
  busyTimeoutMs?: number;
}

export async function openDb(url: string, opts: OpenOptions = {}): Promise<DbHandle> {
  const dialect = dialectOf(url);
  const pooled = opts.pooler === 'transaction';
  const handle =
    dialect === 'pg'
      ? openPg(url, opts.poolSize, opts.onIdleError, pooled ? undefined : opts.statementTimeoutMs)
      : openSqlite(sqlitePath(url), opts.busyTimeoutMs);
  if (pooled) unnamedStatements();
  if (opts.migrate) await migrateDb(handle);
  return handle;
}

/** Applies the migrations not yet applied (`migrationsFolder`: a test's copy holding the first few). */
export async function migrateDb(
  handle: DbHandle,
  migrationsFolder = path.join(migrationsRoot, handle.dialect),
): Promise<void> {
  if (handle.dialect === 'pg') {
    // One migrator at a time across processes (parallel test workers, two servers starting together):
    // a transaction-scoped advisory lock, held until drizzle's migration transaction commits. Nothing
    // outlives the transaction, so it works behind a transaction pooler (a session lock would stay with
    // whichever server connection PgBouncer happened to use).
    const client = await (handle as PgHandle).pool.connect();
    try {
      await client.query('begin');
      await client.query('select pg_advisory_xact_lock(72731)');
      // An index built on a large table may take minutes: no statement timeout for migrations.
      await client.query('set local statement_timeout = 0');
      // drizzle's own BEGIN is a no-op inside ours (a warning), and its COMMIT ends ours, releasing the lock.
      await migratePg(drizzlePg(client), { migrationsFolder });
      await analyzeWhereStatisticsWereDropped(client);
      // On a distributed Citus database, what the migrations added and is not yet placed (db/citus.ts).
      await client.query('begin');
      await client.query('select pg_advisory_xact_lock(72731)');
      await distributeNew(client);
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  } else {
    migrateSqlite((handle as SqliteHandle).writer as never, { migrationsFolder });
  }
}

/**
 * A migration that changes a column's type (0029, integer → bigint) drops that column's statistics, and
 * autovacuum re-analyzes a table only after enough of it changes: until then PostgreSQL plans a big
 * clinic's rows as if it were an average one (a capped count read all 5M of a clinic's appointment index
 * entries: 128 ms instead of 4). Tables that were analyzed before but miss a column's statistics are
 * analyzed here, after the migration commits (ANALYZE samples: about a second for a 5M-row table).
 */
async function analyzeWhereStatisticsWereDropped(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.reltuples > 0
        AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                     AND NOT EXISTS (SELECT 1 FROM pg_statistic s WHERE s.starelid = c.oid AND s.staattnum = a.attnum))
      ORDER BY 1`,
  );
  for (const { name } of rows) await client.query(`ANALYZE ${quoted(name)}`);
}

type PgHandle = DbHandle & { pool: pg.Pool };

function openPg(
  url: string,
  poolSize = 10,
  onIdleError: (err: Error) => void = () => undefined,
  statementTimeoutMs?: number,
): PgHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
  });
  // A connection dropped by the server (a restart, a failover) emits 'error': on the pool while idle, on
  // the client while checked out between queries. Unheard, either ends the process. The query in flight
  // fails on its own (a JSON 500 for its request) and the pool discards the broken connection.
  pool.on('error', onIdleError);
  pool.on('connect', (client) => client.on('error', onIdleError));
  const db = drizzlePg(pool, { schema });
  return {
    db,
    pool,
    dialect: 'pg',
    transaction: async (fn) => {
      let used: object | undefined;
      const result = await db.transaction((tx) => fn((used = tx) as unknown as Db));
      if (used) committed(used);
      return result;
    },
    all: async <T>(query: SQL) => (await db.execute(query)).rows as T[],
    refreshStatistics: async () => false,
    appendRows: async (table, columns, rows) => {
      const width = columns.length;
      for (let at = 0; at < rows.length; at += APPEND_CHUNK) {
        const chunk = rows.slice(at, at + APPEND_CHUNK);
        const values = chunk.map((_, i) => `(${columns.map((_, j) => `$${i * width + j + 1}`).join(', ')})`).join(', ');
        await pool.query(
          `INSERT INTO ${quoted(getTableName(table))} (${columns.map((c) => quoted(c.name)).join(', ')}) VALUES ${values}`,
          chunk.flat(),
        );
      }
    },
    close: () => pool.end(),
  };
}

type SqliteHandle = DbHandle & { writer: Db };

/**
 * Two connections. Every write runs in `transaction()` on the writer, one transaction at a time
 * in-process (a promise chain) and across processes (BEGIN IMMEDIATE plus busy_timeout). Everything
 * else reads through a read-only connection, so no query of another request can run inside an open
 * transaction while it awaits (it would see uncommitted rows, and its own writes would be rolled back
 * with it), and a write outside a transaction fails at once ("attempt to write a readonly database")
 * instead of joining whatever transaction happens to be open. See docs/decisions.md.
 */
function openSqlite(file: string, busyTimeoutMs = 5000): SqliteHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: DIR_MODE });
  // Owner-only, whatever the umask of the process that made it (server/files/private.ts).
  if (file !== ':memory:') tighten(file);
  const conn = new Database(file);
  if (file !== ':memory:') tighten(file, `${file}-wal`, `${file}-shm`);
  conn.pragma('journal_mode = WAL');
  conn.pragma('synchronous = NORMAL');
  conn.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  conn.pragma('foreign_keys = ON');
  // The WAL is copied back into the base every WAL_CHECKPOINT_PAGES (~40 MiB) rather than SQLite's 1,000:
  // the request log commits thousands of rows at a time, and each commit past 1,000 pages paid a
  // checkpoint on the request path (decision 257).
  conn.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  // Planner statistics, refreshed with bounded work as SQLite recommends for long-lived connections: here
  // when a process opens the base, and hourly by the job statistics.refresh (refreshSqliteStatistics).
  conn.pragma('analysis_limit = 1000');
  conn.pragma('optimize = 0x10002');
  const reader = file === ':memory:' ? conn : new Database(file, { readonly: true });
  if (reader !== conn) reader.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  const writer = drizzleSqlite(conn, { schema }) as unknown as Db;
  const db = drizzleSqlite(reader, { schema }) as unknown as Db;
  let queue: Promise<unknown> = Promise.resolve();
  const transaction = <T>(fn: (tx: Db) => Promise<T>): Promise<T> => {
    const run = async () => {
      conn.exec('BEGIN IMMEDIATE');
      unmarked(writer);
      try {
        const result = await fn(writer);
        conn.exec('COMMIT');
        committed(writer);
        return result;
      } catch (err) {
        if (conn.inTransaction) conn.exec('ROLLBACK');
        throw err;
      }
    };
    const result = queue.then(run, run);
    queue = result.catch(() => undefined);
    return result;
  };
  // Prepared multi-row inserts by table, columns and row count (a full chunk, or one row for the rest).
  const appends = new Map<string, SqliteStatement>();
  const appendStatement = (table: PgTable, columns: readonly PgColumn[], n: number) => {
    const key = `${getTableName(table)}(${columns.map((c) => c.name).join()})x${n}`;
    let stmt = appends.get(key);
    if (!stmt) {
      const row = `(${columns.map(() => '?').join(', ')})`;
      stmt = conn.prepare(
        `INSERT INTO ${quoted(getTableName(table))} (${columns.map((c) => quoted(c.name)).join(', ')}) VALUES ${Array(n).fill(row).join(', ')}`,
      );
      appends.set(key, stmt);
    }
    return stmt;
  };
  // better-sqlite3 binds no booleans: they are stored as 0/1 (drizzle's boolean mode reads them back).
  const bindable = (v: Scalar) => (v === true ? 1 : v === false ? 0 : v);
  return {
    db,
    writer,
    dialect: 'sqlite',
    appendRows: (table, columns, rows) =>
      transaction(async () => {
        const full = appendStatement(table, columns, APPEND_CHUNK);
        const params: Scalar[] = new Array(APPEND_CHUNK * columns.length);
        let at = 0;
        for (; at + APPEND_CHUNK <= rows.length; at += APPEND_CHUNK) {
          let i = 0;
          for (let r = at; r < at + APPEND_CHUNK; r++) for (const v of rows[r]) params[i++] = bindable(v);
          full.run(params);
        }
        for (; at < rows.length; at++) appendStatement(table, columns, 1).run(rows[at].map(bindable));
      }),
    transaction,
    all: async <T>(query: SQL) => (db as unknown as { all: (q: SQL) => T[] }).all(query),
    refreshStatistics: () => transaction(async () => refreshSqliteStatistics(conn)),
    close: async () => {
      if (reader !== conn) reader.close();
      conn.close();
    },
  };
}

/**
 * SQLite's advice for a long-lived connection: PRAGMA optimize when it opens and then now and then, so a
 * base that started small (its tables analyzed at a few rows, when walking the rowid is cheapest) is
 * planned by its indexes once it has grown. The reader and other processes' connections keep the
 * statistics they loaded with the schema (ANALYZE elsewhere does not reach them: measured), so when these
 * changed the schema is touched, which every connection notices before its next statement and reloads.
 */
function refreshSqliteStatistics(conn: SqliteDatabase): boolean {
  const stats = () =>
    conn.prepare(`select 1 from sqlite_schema where name = 'sqlite_stat1'`).get()
      ? JSON.stringify(conn.prepare('select tbl, idx, stat from sqlite_stat1 order by tbl, idx').raw().all())
      : '';
  const before = stats();
  conn.pragma('optimize = 0x10002');
  if (stats() === before) return false;
  conn.exec('create view statistics_reloaded as select 1; drop view statistics_reloaded');
  return true;
}

/** Raw SQL returning rows on a transaction's handle (what `DbHandle.all` is outside one). */
export async function allIn<T = Record<string, unknown>>(tx: Db, query: SQL): Promise<T[]> {
  if (isPg) return (await tx.execute(query)).rows as T[];
  return (tx as unknown as { all: (q: SQL) => T[] }).all(query);
}

/** Raw SQL that returns no rows (DDL, SAVEPOINT), on a transaction's handle: better-sqlite3 refuses `all` for one. */
export async function execIn(tx: Db, query: SQL): Promise<void> {
  // By what the handle has, not the process's dialect: a joined handle (db/joined.ts) may wrap either.
  if ('execute' in tx && typeof tx.execute === 'function') await tx.execute(query);
  else (tx as unknown as { run: (q: SQL) => unknown }).run(query);
}
