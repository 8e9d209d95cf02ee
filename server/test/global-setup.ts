import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { distribute } from '../../db/citus';
import { openDb } from '../../db/client';
import { createClusterDatabase, dropClusterDatabase } from './support/cluster-database';

/**
 * Creates the run's own PostgreSQL database when the suite runs on PostgreSQL (vitest.config.ts names
 * it), migrates the test database once before the workers start, and drops the run's database after.
 * On a Citus cluster (CITUS_WORKERS: the workers' host:port, scripts/citus-temp.sh) the database is made
 * on every node with the extension (Citus 13.0 does not propagate CREATE DATABASE), the workers are
 * registered in it, and it is distributed after the migrations (`clinic citus distribute`).
 * It also compiles the server and command line once (`npm run build`'s bundler) into CLINIC_TEST_DIST,
 * the build the tests' `clinic` commands run (support/cli.ts), and removes it after.
 */
export default async function setup() {
  const url = process.env.DATABASE_URL!;
  const server = process.env.CLINIC_TEST_SERVER_URL;
  const name = server ? new URL(url).pathname.slice(1) : null;
  // Only a PostgreSQL run is distributed: a CITUS_WORKERS left in the shell must not touch a SQLite run.
  const citus = !!process.env.CITUS_WORKERS && /^postgres(ql)?:/.test(url);
  const dist = process.env.CLINIC_TEST_DIST!;
  const built = promisify(execFile)(process.execPath, ['scripts/build-server.mjs', '--outdir', dist], {
    cwd: path.resolve(__dirname, '../..'),
  });
  built.catch(() => undefined); // awaited (and thrown) below, after the database work it runs beside
  if (server && name) await createClusterDatabase(server, name);
  const db = await openDb(url, { migrate: true });
  await db.close();
  if (citus) await distribute(url, 8);
  await built;
  console.log(`test database: ${url.replace(/\/\/[^@]*@/, '//')}${citus ? ' (Citus, distributed)' : ''}`);
  return async () => {
    if (server && name) await dropClusterDatabase(server, name);
    fs.rmSync(dist, { recursive: true, force: true });
  };
}
