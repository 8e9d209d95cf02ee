import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Without DATABASE_URL the suite runs on a fresh SQLite file; scripts/test-all.sh also runs it on PostgreSQL.
// On PostgreSQL each run gets a fresh database of its own on the given server (global-setup.ts creates
// and drops it): what one run leaves behind (sign-in failures counted per address, rate-limit buckets)
// never reaches the next, as when CI runs the suite directly and then again through PgBouncer.
const given = process.env.DATABASE_URL;
const runName = `clinic-test-${process.pid}-${Date.now()}`;
const databaseUrl = !given
  ? path.join(os.tmpdir(), `${runName}.db`)
  : /^postgres(ql)?:/.test(given)
    ? runDatabase(given)
    : given;

function runDatabase(server: string) {
  process.env.CLINIC_TEST_SERVER_URL = server;
  const url = new URL(server);
  url.pathname = `/${runName.replaceAll('-', '_')}`;
  return url.toString();
}

process.env.DATABASE_URL = databaseUrl;
// The compiled command line the tests run (global-setup.ts builds it; server/test/support/cli.ts runs it).
// Inside the project, so the bundles resolve node_modules as dist/ does.
const distDir = path.join(fileURLToPath(new URL('.', import.meta.url)), 'node_modules', '.cache', `${runName}-dist`);
process.env.CLINIC_TEST_DIST = distDir;

export default defineConfig({
  // Runs side by side (scripts/test-all.sh) keep their results caches apart: one run's write must not be
  // read half-written by another at its start.
  cacheDir: process.env.CLINIC_TEST_CACHE_DIR,
  test: {
    include: ['server/**/*.test.ts', 'db/**/*.test.ts'],
    // JOBS off: no server of a test (nor one it spawns) runs periodic jobs on its own; tests tick them.
    // SQLITE_BUSY_TIMEOUT_MS: the workers share one SQLite file, and one file's long seeding transaction
    // must not turn another's request into a 503 (that answer has a test of its own: statement-timeout).
    env: {
      DATABASE_URL: databaseUrl,
      CLINIC_TEST_DIST: distDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      JOBS: 'off',
      SQLITE_BUSY_TIMEOUT_MS: '60000',
    },
    globalSetup: ['server/test/global-setup.ts'],
    pool: 'forks',
    // SQLite: most files spend their time waiting on sockets, timers and the database, not the CPU: one
    // worker more than the machine has cores (vitest's default is one fewer) runs the suite in half the
    // time. PostgreSQL: one file at a time. The events feed holds events back while any older transaction
    // of the server is in flight (its snapshots span databases), so files side by side made each other's
    // fresh events late (three workers saved about three minutes of twelve on two cores).
    maxWorkers: process.env.CLINIC_TEST_SERVER_URL ? 1 : os.availableParallelism() + 1,
    // A stray .only must not pass CI by running one test.
    allowOnly: false,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
