import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Without DATABASE_URL the suite runs on a fresh SQLite file; scripts/test-all.sh also runs it on PostgreSQL.
const databaseUrl = process.env.DATABASE_URL || path.join(os.tmpdir(), `clinic-test-${process.pid}-${Date.now()}.db`);

process.env.DATABASE_URL = databaseUrl;

export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'db/**/*.test.ts'],
    // JOBS off: no server of a test (nor one it spawns) runs periodic jobs on its own; tests tick them.
    env: { DATABASE_URL: databaseUrl, NODE_ENV: 'test', LOG_LEVEL: 'silent', JOBS: 'off' },
    globalSetup: ['server/test/global-setup.ts'],
    pool: 'forks',
    // A stray .only must not pass CI by running one test.
    allowOnly: false,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
