/**
 * Prometheus metrics (prom-client), recorded only when METRICS_PORT is set and served on a listener of
 * their own (METRICS_HOST, loopback by default), never on the API's port. Labels are bounded and carry
 * no tenant or patient: a route is its template (`/v3/api/patients/{id}`), a status its class (`2xx`),
 * a job its name; clinics, keys, ids and paths as sent are never labels (cardinality, and privacy: a
 * scrape is readable by whoever runs the monitoring).
 *
 * With WEB_CONCURRENCY > 1 every worker records into its own registry and the primary serves /metrics,
 * asking the workers over the cluster IPC and adding their answers up (prom-client's AggregatorRegistry).
 */
import cluster from 'node:cluster';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import client from 'prom-client';
import type { DbHandle } from '../../db/client';
import type { Env } from '../env';
import type { Job, JobResult, JobRun } from '../scheduler/scheduler';
import { combine, observing, UNMATCHED, type DeliveryOutcome } from './hooks';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS']);
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];
export { UNMATCHED };

function createMetrics(registry: client.Registry) {
  client.collectDefaultMetrics({ register: registry });
  const requests = new client.Histogram({
    name: 'clinic_http_request_duration_seconds',
    help: 'Requests by method, route template and status class (REST under /v3/api, the MCP server, OAuth endpoints, portal procedures); _count is the request count',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const refusals = new client.Counter({
    name: 'clinic_rate_limit_refusals_total',
    help: 'Requests refused 429 by a rate-limit budget or throttle: rest (a key of a clinic), unauth (an address), mcp (the MCP server), oauth (OAuth endpoints and discovery), portal (sign-in and other portal throttles)',
    labelNames: ['budget'] as const,
    registers: [registry],
  });
  const deliveries = new client.Counter({
    name: 'clinic_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered (2xx), retrying (scheduled again), failed (given up)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const lag = new client.Histogram({
    name: 'clinic_webhook_delivery_lag_seconds',
    help: 'From a webhook message falling due to its attempt starting',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
    registers: [registry],
  });
  const jobs = new client.Histogram({
    name: 'clinic_job_duration_seconds',
    help: 'Runs of the periodic jobs (server/jobs) by job and outcome; _count is the number of runs',
    labelNames: ['job', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  return { requests, refusals, deliveries, lag, jobs };
}

type Metrics = ReturnType<typeof createMetrics>;

/** Gauges read from the database when scraped: the webhook queue, and the PostgreSQL pool of this process. */
function addDatabaseGauges(registry: client.Registry, db: DbHandle) {
  new client.Gauge({
    name: 'clinic_webhook_queue_depth',
    help: 'Webhook messages waiting: due (to be sent now), scheduled (a retry later), held (endpoint disabled)',
    labelNames: ['state'] as const,
    // Every process reads the same table: the cluster total is one reading, not their sum.
    aggregator: 'max',
    registers: [registry],
    async collect() {
      const now = new Date().toISOString();
      // Pending messages only, through the (status, next_attempt_at) index.
      const rows = await db.all<{ state: string; n: number | string }>(
        sql`select case when next_attempt_at is null then 'held' when next_attempt_at <= ${now} then 'due' else 'scheduled' end as state, count(*) as n from webhook_messages where status = 'pending' group by 1`,
      );
      this.reset();
      for (const state of ['due', 'scheduled', 'held'])
        this.set({ state }, Number(rows.find((r) => r.state === state)?.n ?? 0));
    },
  });
  const pool = (db as { pool?: { totalCount: number; idleCount: number; waitingCount: number } }).pool;
  // SQLite has one writer and no pool to watch: the gauge exists on PostgreSQL only.
  if (!pool) return;
  new client.Gauge({
    name: 'clinic_db_pool_connections',
    help: 'PostgreSQL pool of the server processes: open (total), idle, and requests waiting for a connection',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
}

/** The route template under /v3/api; the OpenAPI document by name; every unmatched path as one. */
const DOCS = '/v3/api/openapi.json';
const routeLabel = (route: string | undefined, path: string) =>
  route !== undefined ? `/v3/api${route}` : path === DOCS ? DOCS : UNMATCHED;

const statusClass = (status: number) => STATUS_CLASSES[Math.floor(status / 100) - 1] ?? 'other';

/** Starts recording into a registry of this process (the hot paths see `observing.metrics` set). */
function record(db: DbHandle): client.Registry {
  const registry = new client.Registry();
  const m: Metrics = createMetrics(registry);
  addDatabaseGauges(registry, db);
  // One child per label set, kept: prom-client hashes the labels object on every observe otherwise.
  const children = new Map<string, client.Histogram.Internal<'method' | 'route' | 'status_class'>>();
  const verbOf = (method: string | undefined) => (method && METHODS.has(method) ? method : 'other');
  observing.metrics = {
    request(route, method, path, status, ms, authenticated) {
      const verb = verbOf(method);
      // Keyed by what the label is made of: an unmatched path never becomes a key of its own.
      const key = `${verb} ${route ?? (path === DOCS ? DOCS : UNMATCHED)} ${status}`;
      let child = children.get(key);
      if (!child) children.set(key, (child = m.requests.labels(verb, routeLabel(route, path), statusClass(status))));
      child.observe(ms / 1000);
      if (status === 429) m.refusals.inc({ budget: authenticated ? 'rest' : 'unauth' });
    },
    served(route, method, status, ms, _requestId, surface) {
      if (status === 429) m.refusals.inc({ budget: surface });
      const verb = verbOf(method);
      // `*`: apart from the REST keys, which hold the route below /v3/api.
      const key = `*${verb} ${route} ${status}`;
      let child = children.get(key);
      if (!child) children.set(key, (child = m.requests.labels(verb, route, statusClass(status))));
      child.observe(ms / 1000);
    },
    delivery(outcome: DeliveryOutcome, dueAt: string | null, startedAt: number) {
      m.deliveries.inc({ outcome });
      if (dueAt) m.lag.observe(Math.max(0, startedAt - Date.parse(dueAt)) / 1000);
    },
    async job(job: Job, run: JobRun): Promise<JobResult> {
      const end = m.jobs.startTimer({ job: job.name });
      try {
        const result = await job.run(run);
        end({ outcome: 'ok' });
        return result;
      } catch (err) {
        end({ outcome: 'failed' });
        throw err;
      }
    },
  };
  combine();
  return registry;
}

/** GET /metrics on its own listener; anything else is 404. */
function listen(env: Env, scrape: () => Promise<{ body: string; type: string }>): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '/').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    scrape().then(
      ({ body, type }) => res.writeHead(200, { 'content-type': type }).end(body),
      (err: unknown) =>
        res
          .writeHead(503, { 'content-type': 'text/plain' })
          .end(`metrics unavailable: ${err instanceof Error ? err.message : String(err)}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(env.METRICS_PORT, env.METRICS_HOST, () => {
      server.unref();
      resolve(server);
    });
  });
}

export interface MetricsListener {
  server: http.Server;
  port: number;
  close(): Promise<void>;
}

const listenerOf = (server: http.Server): MetricsListener => ({
  server,
  port: (server.address() as AddressInfo).port,
  close: () => new Promise((resolve) => server.close(() => resolve())),
});

/**
 * In a server process: records its metrics; a single process (not a cluster worker) also serves them.
 * Null when METRICS_PORT is unset or this is a cluster worker (the primary serves).
 */
export async function startMetrics(env: Env, db: DbHandle): Promise<MetricsListener | null> {
  if (env.METRICS_PORT === undefined) return null;
  const registry = record(db);
  if (cluster.isWorker) {
    // Answers the primary's requests for this process's metrics.
    client.AggregatorRegistry.setRegistries([registry]);
    new client.AggregatorRegistry();
    return null;
  }
  return listenerOf(await listen(env, async () => ({ body: await registry.metrics(), type: registry.contentType })));
}

/** In the cluster's primary: /metrics adds up every worker's metrics. Null when METRICS_PORT is unset. */
export async function startClusterMetrics(env: Env): Promise<MetricsListener | null> {
  if (env.METRICS_PORT === undefined) return null;
  const aggregated = new client.AggregatorRegistry();
  return listenerOf(
    await listen(env, async () => ({ body: await aggregated.clusterMetrics(), type: aggregated.contentType })),
  );
}
