import pg from 'pg';
import { openDb } from '../../db/client';

/**
 * Creates the run's own PostgreSQL database when the suite runs on PostgreSQL (vitest.config.ts names
 * it), migrates the test database once before the workers start, and drops the run's database after.
 */
export default async function setup() {
  const url = process.env.DATABASE_URL!;
  const server = process.env.CLINIC_TEST_SERVER_URL;
  const name = server ? new URL(url).pathname.slice(1) : null;
  if (server && name) await onServer(server, `create database ${name}`);
  const db = await openDb(url, { migrate: true });
  await db.close();
  console.log(`test database: ${url.replace(/\/\/[^@]*@/, '//')}`);
  return async () => {
    if (server && name) await onServer(server, `drop database if exists ${name} with (force)`);
  };
}

async function onServer(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
