/**
 * A database of a test's own, apart from the suite's shared one, for tests that change what every
 * account shares (settings such as the secrets key): a fresh SQLite file, or a fresh database on the
 * suite's PostgreSQL server.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export async function ownDatabaseUrl(opts: { ctype?: string } = {}): Promise<string> {
  const shared = process.env.DATABASE_URL!;
  const name = `clinic_own_${randomBytes(6).toString('hex')}`;
  if (!/^postgres(ql)?:/.test(shared)) return path.join(os.tmpdir(), `${name}.db`);
  const client = new pg.Client({ connectionString: shared });
  await client.connect();
  try {
    // A character type of its own needs template0 (template1's is the cluster's).
    await client.query(
      opts.ctype
        ? `create database ${name} template template0 lc_collate 'C' lc_ctype '${opts.ctype}'`
        : `create database ${name}`,
    );
  } finally {
    await client.end();
  }
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Deletes an own SQLite database's files (the database, its WAL and shared memory); closed first. */
export function removeOwnSqlite(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
}
