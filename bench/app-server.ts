/**
 * The real API server, alone in its own process so the load generator does not share its event loop.
 * Rate limits are lifted (the bench would otherwise measure 429s); stdout logging is off unless
 * BENCH_LOG_LEVEL names a level (the logging row sends it to a file). Prints
 * `LISTENING <port>` once ready; exits when the parent's stdin pipe closes, so it cannot outlive it.
 */
import type { AddressInfo } from 'node:net';
import { createApp } from '../server/app';
import { loadEnv } from '../server/env';
import { serveMetrics } from '../server/observability/start';
import { LIFTED_LIMITS } from './limits';

const app = await createApp(
  loadEnv({
    ...process.env,
    ...LIFTED_LIMITS,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
  }),
);
// Prometheus metrics when METRICS_PORT is set (the metrics row, scenario m).
await serveMetrics(loadEnv(), app.db);
// Written directly: the logger's asynchronous stdout may hold a line back.
app.server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`LISTENING ${(app.server.address() as AddressInfo).port}\n`),
);
process.stdin.on('close', () => process.exit(0)).resume();
process.on('SIGTERM', () => process.exit(0));
