/**
 * The API server for the crash test's kill between a commit and its answer (server/test/crash.test.ts):
 * like bench/app-server.ts, but an idempotent write, once committed, prints `COMMITTED` and is never
 * answered, so the test can SIGKILL the process at exactly that point. Test-only.
 */
import type { AddressInfo } from 'node:net';
import { createApp } from '../../app';
import { loadEnv } from '../../env';

const app = await createApp(
  loadEnv({
    ...process.env,
    RATE_LIMIT_REST_PER_MINUTE: '1000000',
    RATE_LIMIT_UNAUTH_PER_MINUTE: '1000000',
    LOG_LEVEL: 'silent',
  }),
  {
    committed: () => {
      process.stdout.write('COMMITTED\n');
      return new Promise<void>(() => undefined);
    },
  },
);
app.server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`LISTENING ${(app.server.address() as AddressInfo).port}\n`),
);
process.stdin.on('close', () => process.exit(0)).resume();
process.on('SIGTERM', () => process.exit(0));
