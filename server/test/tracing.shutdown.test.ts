/**
 * Spans are not lost at a graceful stop: the server (`npm start`'s process model, OpenTelemetry preloaded
 * as server/main.ts does) exports to an OTLP/HTTP receiver of this test; the batch processor is told to
 * wait ten minutes between exports, so the request's spans can only arrive through the flush that
 * SIGTERM's stop awaits (server/serve.ts).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDb } from '../../db/client';
import { createAccount } from '../domain/accounts';
import { createKey } from '../domain/api_keys';
import { ownDatabaseUrl } from './support/own-database';
import { root } from './support/spawn';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: OtlpValue }[];
}
interface OtlpExport {
  resourceSpans: {
    resource?: { attributes?: { key: string; value: OtlpValue }[] };
    scopeSpans: { spans: OtlpSpan[] }[];
  }[];
}

/** What the receiver got: every export's body, parsed (http/json). */
const received: OtlpExport[] = [];
const paths: string[] = [];
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    paths.push(req.url ?? '');
    received.push(JSON.parse(body) as OtlpExport);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clinic-otlp-'));
let child: ChildProcess;
let port = 0;
let key = '';
const host = 'otlp.neptune.localhost';

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = await ownDatabaseUrl();
  const db = await openDb(url, { migrate: true });
  const account = await createAccount(db, {
    subdomain: 'otlp',
    region: 'neptune',
    name: 'OTLP Physio',
    timezone: 'Europe/London',
    currency: 'GBP',
  });
  key = (
    await createKey(
      db,
      account,
      { actor_type: 'system', actor_id: null, actor_name: 'test' },
      { name: 'otlp', access: 'read_write' },
    )
  ).secret;
  await db.close();
  const env = {
    DATABASE_URL: url,
    PORT: '0',
    WEB_CONCURRENCY: '1',
    WEBHOOK_WORKER: 'off',
    JOBS: 'off',
    LOG_LEVEL: 'silent',
    FILES_DIR: path.join(work, 'files'),
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: 'clinic-shutdown-test',
    // Nothing is exported on the timer: only the stop's flush can deliver the spans.
    OTEL_BSP_SCHEDULE_DELAY: '600000',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
  };
  const args = [
    '--import',
    'tsx',
    '--import',
    path.join(root, 'server/observability/preload.ts'),
    path.join(root, 'server/test/support/metrics-server.ts'),
  ];
  child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /LISTENING (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening`)));
  });
}, 90_000);
afterAll(async () => {
  child?.kill('SIGKILL');
  await new Promise<void>((r) => receiver.close(() => r()));
  fs.rmSync(work, { recursive: true, force: true });
});

const me = () =>
  new Promise<{ status: number; requestId: string }>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/v3/api/me', agent: false, headers: { host, authorization: `Bearer ${key}` } },
      (res) =>
        res
          .resume()
          .on('end', () => resolve({ status: res.statusCode ?? 0, requestId: String(res.headers['x-request-id']) })),
    );
    req.on('error', reject);
    req.end();
  });

const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return v?.stringValue ?? v?.intValue ?? v?.boolValue;
};

test('SIGTERM: the graceful stop flushes the request’s spans to the OTLP endpoint before the process exits 0', async () => {
  const { status, requestId } = await me();
  expect(status).toBe(200);
  // The timer is ten minutes away: nothing has been exported yet.
  expect(received).toEqual([]);

  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  expect(await exit).toBe(0);

  expect(paths.every((p) => p === '/v1/traces')).toBe(true);
  const spans = received.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
  const server = spans.find((s) => attr(s, 'clinic.request_id') === requestId && s.kind === 2);
  expect(server, spans.map((s) => s.name).join(', ')).toBeDefined();
  expect(server!.name).toBe('GET /v3/api/me');
  const serviceNames = received
    .flatMap((e) => e.resourceSpans.flatMap((r) => r.resource?.attributes ?? []))
    .filter((a) => a.key === 'service.name');
  expect(serviceNames.map((a) => a.value.stringValue)).toContain('clinic-shutdown-test');
  // The whole request came through: its tenant, key check and procedure spans in its trace, under it.
  const children = spans
    .filter((s) => s.traceId === server!.traceId && s.parentSpanId === server!.spanId)
    .map((s) => s.name);
  expect(children).toEqual(expect.arrayContaining(['tenant resolve', 'auth api_key', 'procedure meta.me']));
}, 60_000);
