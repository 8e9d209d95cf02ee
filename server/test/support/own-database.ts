/**
 * A database of a test's own, apart from the suite's shared one, for tests that change what every
 * account shares (settings such as the secrets key): a fresh SQLite file, or a fresh database on the
 * suite's PostgreSQL server.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export async function ownDatabaseUrl(): Promise<string> {
  const shared = process.env.DATABASE_URL!;
  const name = `clinic_own_${randomBytes(6).toString('hex')}`;
  if (!/^postgres(ql)?:/.test(shared)) return path.join(os.tmpdir(), `${name}.db`);
  const client = new pg.Client({ connectionString: shared });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return url.toString();
}
