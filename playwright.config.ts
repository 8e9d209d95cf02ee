import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// Browser tests drive Debian's Chromium (never a downloaded browser) against the real server: Next for
// the portal and the REST gateway in the same process (server/main.ts), on a throwaway SQLite file.
const port = Number(process.env.E2E_PORT ?? 3999);
const database = path.join(os.tmpdir(), `clinic-e2e-${process.pid}.db`);

export default defineConfig({
  testDir: 'e2e',
  forbidOnly: true,
  timeout: 30_000,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: 'npx next build > /dev/null && npx tsx server/cli/main.ts demo > /dev/null && npx tsx server/main.ts',
    url: `http://localhost:${port}/`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: { NODE_ENV: 'production', PORT: String(port), DATABASE_URL: database, FILES_DIR: path.join(os.tmpdir(), 'clinic-e2e-files'), LOG_LEVEL: 'warn', RATE_LIMIT_UNAUTH_PER_MINUTE: '1000', NEXT_TELEMETRY_DISABLED: '1' },
  },
});
