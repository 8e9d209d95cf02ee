/**
 * The API server for the two-process lock test (server/test/locks.test.ts): like bench/app-server.ts,
 * with a pause of PAUSE_MS inside every critical section, so two processes on one SQLite file would both
 * be inside one at the same time if nothing kept them apart. Test-only: nothing else starts this file.
 */
import type { AddressInfo } from 'node:net';
import { createApp } from '../../app';
import { loadEnv } from '../../env';

const pauseMs = Number(process.env.PAUSE_MS ?? 300);
const app = await createApp(loadEnv({ ...process.env, RATE_LIMIT_REST_PER_MINUTE: '1000000', LOG_LEVEL: 'silent' }), {
  pause: () => new Promise((r) => setTimeout(r, pauseMs)),
});
app.server.listen(0, '127.0.0.1', () => console.log(`LISTENING ${(app.server.address() as AddressInfo).port}`));
process.stdin.on('close', () => process.exit(0)).resume();
process.on('SIGTERM', () => process.exit(0));
