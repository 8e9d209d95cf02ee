import { distribute } from '../../db/citus';
import { openDb } from '../../db/client';
import { createClusterDatabase, dropClusterDatabase } from './support/cluster-database';

/**
 * Creates the run's own PostgreSQL database when the suite runs on PostgreSQL (vitest.config.ts names
 * it), migrates the test database once before the workers start, and drops the run's database after.
 * On a Citus cluster (CITUS_WORKERS: the workers' host:port, scripts/citus-temp.sh) the database is made
 * on every node with the extension (Citus 13.0 does not propagate CREATE DATABASE), the workers are
 * registered in it, and it is distributed after the migrations (`clinic citus distribute`).
 */
export default async function setup() {
  const url = process.env.DATABASE_URL!;
  const server = process.env.CLINIC_TEST_SERVER_URL;
  const name = server ? new URL(url).pathname.slice(1) : null;
  // Only a PostgreSQL run is distributed: a CITUS_WORKERS left in the shell must not touch a SQLite run.
  const citus = !!process.env.CITUS_WORKERS && /^postgres(ql)?:/.test(url);
  if (server && name) await createClusterDatabase(server, name);
  const db = await openDb(url, { migrate: true });
  await db.close();
  if (citus) await distribute(url, 8);
  console.log(`test database: ${url.replace(/\/\/[^@]*@/, '//')}${citus ? ' (Citus, distributed)' : ''}`);
  return async () => {
    if (server && name) await dropClusterDatabase(server, name);
  };
}
