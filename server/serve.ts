/**
 * How `npm start` runs: WEB_CONCURRENCY processes sharing the port (node:cluster; the primary only
 * migrates, forks and supervises), the webhook worker in exactly one of them, and a graceful stop on
 * SIGTERM or SIGINT: stop accepting, let in-flight requests finish within SHUTDOWN_TIMEOUT_MS, flush
 * the rate-limit and request-log buffers and the spans not yet exported, exit 0. With WEB_CONCURRENCY=1 the one process does it all.
 */
import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { openDb } from '../db/client';
import { createApp, type App, type AppOptions } from './app';
import type { Env } from './env';
import { observing } from './observability/hooks';
import { serveClusterMetrics, serveMetrics } from './observability/start';

export interface ServeOptions {
  /** Builds what serves the non-API paths (Next's handler); run in each server process. */
  fallback?: () => Promise<AppOptions['fallback']>;
  /** After the app exists, before it listens (the portal bridge for Next's pages). */
  ready?: (app: App) => void;
  /** Once every process listens (the primary's, when clustered); the metrics listener's port when METRICS_PORT is set. */
  listening?: (port: number, metricsPort?: number) => void;
}

/** A worker's number, so that exactly one runs the webhook worker (and replaces it when it dies). */
const WORKER_INDEX = 'CLINIC_WORKER_INDEX';

export async function serve(env: Env, opts: ServeOptions = {}): Promise<void> {
  if (env.WEB_CONCURRENCY > 1 && cluster.isPrimary) return supervise(env, opts);
  const app = await createApp(env, { fallback: await opts.fallback?.() });
  opts.ready?.(app);
  const metrics = await serveMetrics(env, app.db);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await app.close({ graceMs: env.SHUTDOWN_TIMEOUT_MS });
    // The last requests' spans are still buffered by the exporter: sent before exiting (bounded).
    await observing.stop?.();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  app.server.listen(env.PORT, env.HOST, () => {
    if (cluster.isPrimary) opts.listening?.((app.server.address() as AddressInfo).port, metrics?.port);
  });
}

async function supervise(env: Env, opts: ServeOptions): Promise<void> {
  // Migrate once, here: workers starting together would race to migrate a SQLite file.
  await (
    await openDb(env.DATABASE_URL, {
      migrate: true,
      pooler: env.DATABASE_POOLER,
      busyTimeoutMs: env.SQLITE_BUSY_TIMEOUT_MS,
    })
  ).close();
  const metrics = await serveClusterMetrics(env);
  let stopping = false;
  let listening = 0;
  const fork = (index: number) => {
    const worker = cluster.fork({
      [WORKER_INDEX]: String(index),
      WEBHOOK_WORKER: index === 0 && env.WEBHOOK_WORKER ? 'on' : 'off',
    });
    worker.once('listening', (address: AddressInfo) => {
      if (++listening === env.WEB_CONCURRENCY) opts.listening?.(address.port, metrics?.port);
    });
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      console.error(`server process ${index} exited (${signal ?? code}); starting another`);
      setTimeout(() => fork(index), 1000).unref();
    });
  };
  for (let i = 0; i < env.WEB_CONCURRENCY; i++) fork(i);

  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
    // A worker that cannot finish in time is killed; the primary still exits (1: not clean).
    const deadline = setTimeout(() => {
      for (const w of workers) w.process.kill('SIGKILL');
      process.exit(1);
    }, env.SHUTDOWN_TIMEOUT_MS + 5000);
    let left = workers.length;
    if (!left) process.exit(0);
    for (const w of workers) {
      w.once('exit', () => {
        if (--left === 0) {
          clearTimeout(deadline);
          process.exit(0);
        }
      });
      w.process.kill('SIGTERM');
    }
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
