/**
 * A PostgreSQL database whose character type is C or POSIX lowercases only ASCII: `contains` (ILIKE) on
 * names is then case-sensitive for every other letter, and pg_trgm skips them (docs/operations.md). The
 * server warns at start-up; this says whether it must.
 */
import { sql } from 'drizzle-orm';
import type { DbHandle } from './client';

/** The database's character type when it lowercases only ASCII (C, POSIX); null otherwise and on SQLite. */
export async function asciiOnlyCase(db: DbHandle): Promise<string | null> {
  if (db.dialect !== 'pg') return null;
  const [row] = await db.all<{ ctype: string }>(
    sql`select datctype as ctype from pg_database where datname = current_database()`,
  );
  return row && ['C', 'POSIX'].includes(row.ctype) ? row.ctype : null;
}
