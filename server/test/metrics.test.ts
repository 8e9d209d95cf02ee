/**
 * Prometheus metrics (server/observability/metrics.ts): after a small scenario (reads, a 404 of a known
 * route and of an unknown path, a 429, a webhook delivery, job runs) the scrape has each series, with
 * route templates and status classes as labels and never a clinic, an id or a path as sent; the
 * listener is on loopback and apart from the API's port. With WEB_CONCURRENCY=2 the primary's scrape
 * adds up both processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isPg } from '../../db/dialect';
import { openDb } from '../../db/client';
import { createAccount } from '../domain/accounts';
import { createKey } from '../domain/api_keys';
import { createEndpoint } from '../domain/webhooks';
import { loadEnv } from '../env';
import { Scheduler } from '../scheduler/scheduler';
import { observing } from '../observability/hooks';
import type { MetricsListener } from '../observability/metrics';
import { serveMetrics } from '../observability/start';
import { uniqueName, useClinic } from './helpers';
import { root } from './support/spawn';

const LIMIT = 12;
const t = useClinic({ seed: true, env: { RATE_LIMIT_REST_PER_MINUTE: String(LIMIT) } });
let metrics: MetricsListener;

/** A webhook receiver answering 200. */
const receiver = http.createServer((req, res) => req.resume().on('end', () => res.end('ok')));

beforeAll(async () => {
  metrics = (await serveMetrics(loadEnv({ ...process.env, METRICS_PORT: '0' }), t.server.app.db))!;
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await metrics?.close();
  await new Promise<void>((r) => receiver.close(() => r()));
});

const scrape = async (port: number) => {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
};

/** The value of one series, by its exact name and labels as printed; undefined when absent. */
const valueOf = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

test('the scrape after a small scenario: requests by route template and status class, refusals, deliveries, jobs, the queue, the event loop', async () => {
  // A webhook delivery: a patient created over REST, delivered by the worker.
  const actor = { actor_type: 'system' as const, actor_id: null, actor_name: 'test' };
  await createEndpoint(
    t.server.app.db,
    t.clinic.account,
    actor,
    { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: 'all' },
    true,
  );
  const created = await t.api.post('/patients', { body: { first_name: 'Metric', last_name: 'Scrape' } });
  expect(created.status).toBe(201);
  expect(await t.server.app.webhooks.drain()).toBeGreaterThanOrEqual(1);

  const list = await t.api.get('/patients?page_size=2');
  const ids: number[] = list.body.data.map((p: { id: number }) => p.id);
  expect(ids).toHaveLength(2);
  for (const id of ids) expect((await t.api.get(`/patients/${id}`)).status).toBe(200);
  expect((await t.api.get('/patients/987654321')).status).toBe(404);
  expect((await t.api.get('/no-such-thing/42')).status).toBe(404);
  // Spend the rest of the budget: the next request is refused.
  let sent = 6;
  let refused = await t.api.get('/me');
  while (refused.status !== 429 && sent++ < LIMIT + 2) refused = await t.api.get('/me');
  expect(refused.status).toBe(429);

  // Two jobs through the scheduler: one runs, one fails.
  const ok = uniqueName('metrics.ok.');
  const failing = uniqueName('metrics.failing.');
  const scheduler = new Scheduler(t.server.app.db, [
    { name: ok, everyMs: 60_000, run: async () => undefined },
    { name: failing, everyMs: 60_000, run: async () => Promise.reject(new Error('on purpose')) },
  ]);
  expect((await scheduler.tick()).sort()).toEqual([failing, ok].sort());

  const text = await scrape(metrics.port);
  const count = (method: string, route: string, cls: string) =>
    valueOf(
      text,
      `clinic_http_request_duration_seconds_count{method="${method}",route="${route}",status_class="${cls}"}`,
    );
  expect(count('GET', '/v3/api/patients/{id}', '2xx')).toBe(2);
  expect(count('GET', '/v3/api/patients/{id}', '4xx')).toBe(1);
  expect(count('GET', '/v3/api/patients', '2xx')).toBe(1);
  expect(count('POST', '/v3/api/patients', '2xx')).toBe(1);
  expect(count('GET', '(unmatched)', '4xx')).toBe(1);
  expect(count('GET', '/v3/api/me', '4xx')).toBe(1);
  expect(
    valueOf(
      text,
      'clinic_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/v3/api/patients/{id}",status_class="2xx"}',
    ),
  ).toBe(2);
  expect(valueOf(text, 'clinic_rate_limit_refusals_total{budget="rest"}')).toBe(1);
  expect(valueOf(text, 'clinic_webhook_deliveries_total{outcome="delivered"}')).toBeGreaterThanOrEqual(1);
  expect(valueOf(text, 'clinic_webhook_delivery_lag_seconds_count')).toBeGreaterThanOrEqual(1);
  for (const state of ['due', 'scheduled', 'held'])
    expect(valueOf(text, `clinic_webhook_queue_depth{state="${state}"}`)).toBeGreaterThanOrEqual(0);
  expect(valueOf(text, `clinic_job_duration_seconds_count{job="${ok}",outcome="ok"}`)).toBe(1);
  expect(valueOf(text, `clinic_job_duration_seconds_count{job="${failing}",outcome="failed"}`)).toBe(1);
  expect(valueOf(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  if (isPg) expect(valueOf(text, 'clinic_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
  else expect(text).not.toContain('clinic_db_pool_connections');

  // Bounded labels: no clinic, no id, no path as sent.
  expect(text).not.toContain(t.clinic.account.subdomain);
  for (const id of [...ids, 987654321]) expect(text).not.toContain(`/${id}`);
  expect(text).not.toContain('no-such-thing');
});

test('the listener is on loopback and apart from the API: /metrics on the API port is 404, other paths on the listener 404', async () => {
  expect((metrics.server.address() as AddressInfo).address).toBe('127.0.0.1');
  expect(metrics.port).not.toBe(t.server.port);
  const onApi = await fetch(`http://127.0.0.1:${t.server.port}/metrics`);
  expect(onApi.status).toBe(404);
  expect(await onApi.json()).toMatchObject({ code: 'not_found' });
  expect((await fetch(`http://127.0.0.1:${metrics.port}/`)).status).toBe(404);
  expect((await fetch(`http://127.0.0.1:${metrics.port}/metrics`, { method: 'POST' })).status).toBe(404);
});

test('METRICS_PORT unset (or empty): no listener', async () => {
  expect(await serveMetrics(loadEnv({ ...process.env, METRICS_PORT: '' }), t.server.app.db)).toBeNull();
});

test('tracing not configured: the OpenTelemetry SDK is never loaded and nothing observes traces', () => {
  expect(observing.tracing).toBeNull();
  expect(
    Object.keys(createRequire(import.meta.url).cache).filter((file) =>
      /@opentelemetry\/(sdk-|instrumentation)/.test(file),
    ),
  ).toEqual([]);
});

describe('WEB_CONCURRENCY=2', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clinic-metrics-'));
  const url = path.join(work, 'metrics.db');
  let child: ChildProcess | undefined;
  let ports = { api: 0, metrics: 0 };
  let host = '';
  let key = '';

  beforeAll(async () => {
    const db = await openDb(url, { migrate: true });
    const account = await createAccount(db, {
      subdomain: 'metrics',
      region: 'neptune',
      name: 'Metrics Physio',
      timezone: 'Europe/London',
      currency: 'GBP',
    });
    key = (
      await createKey(
        db,
        account,
        { actor_type: 'system', actor_id: null, actor_name: 'test' },
        { name: 'metrics', access: 'read_write' },
      )
    ).secret;
    host = 'metrics.neptune.localhost';
    await db.close();
    const env = {
      DATABASE_URL: url,
      PORT: '0',
      METRICS_PORT: '0',
      WEB_CONCURRENCY: '2',
      WEBHOOK_WORKER: 'off',
      JOBS: 'off',
      LOG_LEVEL: 'silent',
      FILES_DIR: path.join(work, 'files'),
      RATE_LIMIT_REST_PER_MINUTE: '1000',
    };
    child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/test/support/metrics-server.ts')], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    ports = await new Promise((resolve, reject) => {
      let out = '';
      child!.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /METRICS (\d+)\nLISTENING (\d+)/.exec(out);
        if (m) resolve({ metrics: Number(m[1]), api: Number(m[2]) });
      });
      child!.on('exit', (code) => reject(new Error(`metrics-server exited (${code}) before listening`)));
    });
  }, 90_000);
  afterAll(() => {
    child?.kill('SIGKILL');
    fs.rmSync(work, { recursive: true, force: true });
  });

  const me = () =>
    new Promise<number>((resolve, reject) => {
      // A connection per request: the primary hands each to the next process in turn.
      const req = http.request(
        {
          host: '127.0.0.1',
          port: ports.api,
          path: '/v3/api/me',
          agent: false,
          headers: { host, authorization: `Bearer ${key}` },
        },
        (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0)),
      );
      req.on('error', reject);
      req.end();
    });

  test('the primary serves /metrics: the requests answered by both processes, added up', async () => {
    const statuses = [];
    for (let i = 0; i < 20; i++) statuses.push(await me());
    expect(statuses.every((s) => s === 200)).toBe(true);
    const text = await scrape(ports.metrics);
    expect(
      valueOf(text, 'clinic_http_request_duration_seconds_count{method="GET",route="/v3/api/me",status_class="2xx"}'),
    ).toBe(20);
    // Per-process series are added up too: two processes' worth of open handles, at least.
    expect(valueOf(text, 'nodejs_active_handles_total')).toBeGreaterThanOrEqual(2);
  }, 30_000);
});
