/**
 * `npm start`'s process model: WEB_CONCURRENCY processes share the port, the webhook worker runs in
 * exactly one, and SIGTERM stops gracefully: an in-flight request completes, the request-log buffer is
 * flushed, and the process exits 0.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDb } from '../../db/client';
import { patients, requestLog } from '../../db/schema';
import { createKey } from '../domain/api_keys';
import { createAccount } from '../domain/accounts';
import type { Account } from '../context';
import { exited, spawnServer, type Spawned } from './support/spawn';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clinic-cluster-'));
const url = path.join(work, 'cluster.db');
let server: Spawned;
let account: Account;
let key: string;

beforeAll(async () => {
  const db = await openDb(url, { migrate: true });
  account = await createAccount(db, {
    subdomain: 'cluster',
    region: 'neptune',
    name: 'Cluster Physio',
    timezone: 'Europe/London',
    currency: 'GBP',
  });
  key = (
    await createKey(
      db,
      account,
      { actor_type: 'system', actor_id: null, actor_name: 'test' },
      { name: 'cluster', access: 'read_write' },
    )
  ).secret;
  await db.close();
  server = await spawnServer('server/test/support/cluster-server.ts', {
    DATABASE_URL: url,
    PORT: '0',
    WEB_CONCURRENCY: '2',
    WEBHOOK_WORKER: 'on',
    SHUTDOWN_TIMEOUT_MS: '5000',
    LOG_LEVEL: 'silent',
    FILES_DIR: path.join(work, 'files'),
    RATE_LIMIT_REST_PER_MINUTE: '1000',
  });
}, 90_000);
afterAll(() => {
  server?.child.kill('SIGKILL');
  fs.rmSync(work, { recursive: true, force: true });
});

function call(method: string, p: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path: `/v3/api${p}`,
        headers: {
          host: 'cluster.neptune.localhost',
          authorization: `Bearer ${key}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const environOf = (pid: number) =>
  Object.fromEntries(
    fs
      .readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );

test('two server processes share the port; exactly one runs the webhook worker', async () => {
  // The primary's children: the two server processes (and tsx's esbuild service, which is not one).
  const children = execFileSync('pgrep', ['-P', String(server.child.pid)], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map(Number);
  const workers = children.filter((pid) => environOf(pid).CLINIC_WORKER_INDEX !== undefined);
  expect(workers).toHaveLength(2);
  expect(workers.map((pid) => environOf(pid).WEBHOOK_WORKER).sort()).toEqual(['off', 'on']);
  const answers = await Promise.all(Array.from({ length: 20 }, () => call('GET', '/me')));
  expect(answers.every((a) => a.status === 200)).toBe(true);
});

test('SIGTERM: the request in flight completes, buffers are flushed, the process exits 0', async () => {
  const body = JSON.stringify({ first_name: 'Graceful', last_name: 'Shutdown' });
  const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path: '/v3/api/patients',
        headers: {
          host: 'cluster.neptune.localhost',
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    // Half the body now, SIGTERM, the rest later: the request is in flight when the stop begins.
    req.write(body.slice(0, 10));
    setTimeout(() => {
      server.child.kill('SIGTERM');
      setTimeout(() => req.end(body.slice(10)), 500);
    }, 200);
  });
  const res = await answered;
  expect(res.status, res.text).toBe(201);
  await exited(server);
  expect(server.child.exitCode).toBe(0);
  const db = await openDb(url, { migrate: false });
  try {
    const saved = await db.db.select().from(patients).where(eq(patients.first_name, 'Graceful'));
    expect(saved).toHaveLength(1);
    // Buffered for up to 5 s in normal running: written at the stop.
    const logged = await db.db.select().from(requestLog).where(eq(requestLog.account_id, account.id));
    expect(logged.map((r) => `${r.method} ${r.path} ${r.status}`).sort()).toEqual(
      [...Array(20).fill('GET /v3/api/me 200'), 'POST /v3/api/patients 201'].sort(),
    );
  } finally {
    await db.close();
  }
}, 30_000);
