import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// Browser tests drive Debian's Chromium (never a downloaded browser) against the real server: Next for
// the portal and the REST gateway in the same process (server/main.ts), on a throwaway SQLite file.
const port = Number(process.env.E2E_PORT ?? 3999);
// Set once by the runner and inherited by its workers (which evaluate this file again), so tests reach
// the same database as the server, e.g. to add team members with the CLI.
process.env.E2E_DATABASE ??= path.join(os.tmpdir(), `clinic-e2e-${process.pid}.db`);
const database = process.env.E2E_DATABASE;
// Set-up and reset links go by email to a real SMTP server the run starts (e2e/support/smtp-server.ts).
process.env.E2E_MAILDIR ??= path.join(os.tmpdir(), `clinic-e2e-mail-${process.pid}`);
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? port + 1);
process.env.E2E_SMTP_PORT = String(smtpPort);
// Uploaded files of this run's server: a run of its own beside this one (a shard) keeps its own.
process.env.E2E_FILES_DIR ??= path.join(os.tmpdir(), `clinic-e2e-files-${process.pid}`);

export default defineConfig({
  testDir: 'e2e',
  forbidOnly: true,
  timeout: 30_000,
  reporter: [['list']],
  // A run beside this one (scripts/test-all.sh runs two halves) writes its failures' context elsewhere.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  use: {
    baseURL: `http://localhost:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      command: 'npx tsx e2e/support/smtp-server.ts',
      port: smtpPort,
      timeout: 60_000,
      reuseExistingServer: false,
      env: { E2E_MAILDIR: process.env.E2E_MAILDIR, E2E_SMTP_PORT: String(smtpPort) },
    },
    {
      // E2E_BUILT: the caller has just built the app (scripts/test-all.sh's build stage).
      command: `${process.env.E2E_BUILT ? '' : 'npx next build > /dev/null && '}npx tsx server/cli/main.ts demo > /dev/null && npx tsx server/main.ts`,
      url: `http://localhost:${port}/`,
      // Seeding and starting on a loaded 2-core machine.
      timeout: 300_000,
      reuseExistingServer: false,
      env: {
        NODE_ENV: 'production',
        PORT: String(port),
        DATABASE_URL: database,
        FILES_DIR: process.env.E2E_FILES_DIR,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_UNAUTH_PER_MINUTE: '1000',
        NEXT_TELEMETRY_DISABLED: '1',
        WEBHOOKS_ALLOW_PRIVATE: '1',
        WEBHOOK_RETRY_DELAYS: '0,1,1',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        MAIL_FROM: 'Clinic API <no-reply@clinic.test>',
      },
    },
  ],
});
