/**
 * Start-up of the metrics listener, loading prom-client only when METRICS_PORT is set (a server
 * without metrics never pays for loading it).
 */
import type { DbHandle } from '../../db/client';
import type { Env } from '../env';
import type { MetricsListener } from './metrics';

/** A server process: records metrics, and serves them unless it is a cluster worker. */
export const serveMetrics = async (env: Env, db: DbHandle): Promise<MetricsListener | null> =>
  env.METRICS_PORT === undefined ? null : (await import('./metrics')).startMetrics(env, db);

/** The cluster's primary: serves every worker's metrics, added up. */
export const serveClusterMetrics = async (env: Env): Promise<MetricsListener | null> =>
  env.METRICS_PORT === undefined ? null : (await import('./metrics')).startClusterMetrics(env);
