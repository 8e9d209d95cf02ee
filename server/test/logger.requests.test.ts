/**
 * The line per request, as a server started like `npm start` writes it to stdout: one JSON line per
 * answered request with pino's fields and its X-Request-Id; LOG_SAMPLE_RATE drops successful reads only
 * (every error answer and every write keeps its line); and SIGTERM loses no line still buffered.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDb } from '../../db/client';
import { loadEnv } from '../env';
import { createAccount } from '../domain/accounts';
import { createKey } from '../domain/api_keys';
import { exited, spawnServer, type Spawned } from './support/spawn';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clinic-log-lines-'));
const url = path.join(work, 'log.db');
const HOST = 'loglines.neptune.localhost';
let key: string;

beforeAll(async () => {
  const db = await openDb(url, { migrate: true });
  const account = await createAccount(db, {
    subdomain: 'loglines',
    region: 'neptune',
    name: 'Log Lines Physio',
    timezone: 'Europe/London',
    currency: 'GBP',
  });
  key = (
    await createKey(
      db,
      account,
      { actor_type: 'system', actor_id: null, actor_name: 'test' },
      { name: 'lines', access: 'read_write' },
    )
  ).secret;
  await db.close();
}, 60_000);
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

interface Started extends Spawned {
  /** Everything the server wrote to stdout so far. */
  out: () => string;
}

async function start(env: Record<string, string>): Promise<Started> {
  const server = await spawnServer('server/test/support/cluster-server.ts', {
    DATABASE_URL: url,
    PORT: '0',
    WEB_CONCURRENCY: '1',
    WEBHOOK_WORKER: 'off',
    JOBS: 'off',
    LOG_LEVEL: 'info',
    FILES_DIR: path.join(work, 'files'),
    RATE_LIMIT_REST_PER_MINUTE: '100000',
    ...env,
  });
  let text = '';
  server.child.stdout!.on('data', (c: Buffer) => (text += c.toString()));
  return { ...server, out: () => text };
}

function call(
  s: Spawned,
  method: string,
  p: string,
  opts: { body?: string; auth?: string } = {},
): Promise<{ status: number; requestId: string }> {
  return new Promise((resolve, reject) => {
    const headers = {
      host: HOST,
      authorization: `Bearer ${opts.auth ?? key}`,
      ...(opts.body
        ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(opts.body)) }
        : {}),
    };
    const req = http.request({ host: '127.0.0.1', port: s.port, method, path: `/v3/api${p}`, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, requestId: String(res.headers['x-request-id']) }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The request lines in what the server wrote (the LISTENING line and pino's other lines left out). */
const requestLinesIn = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === 'request');

async function stop(s: Started): Promise<string> {
  s.child.kill('SIGTERM');
  await exited(s);
  expect(s.child.exitCode).toBe(0);
  return s.out();
}

describe('request lines', () => {
  test('every request gets one line with pino fields and its request id, none lost at SIGTERM; no secret or patient data', async () => {
    const s = await start({ LOG_SAMPLE_RATE: '1' });
    const body = JSON.stringify({ first_name: 'Zebedee', last_name: 'Quixotic', email: 'zebedee@example.com' });
    const created = await call(s, 'POST', '/patients', { body });
    expect(created.status).toBe(201);
    // Many more than one 4 KiB batch, and the last ones still buffered (lines are flushed every second) when SIGTERM comes.
    const reads = await Promise.all(Array.from({ length: 300 }, () => call(s, 'GET', '/me')));
    expect(reads.every((r) => r.status === 200)).toBe(true);
    // A path with characters JSON must escape still makes a valid line.
    const odd = await rawGet(s, '/v3/api/patients/%22x%5C"q\\');
    const text = await stop(s);
    const lines = requestLinesIn(text);
    const byId = new Map(lines.map((l) => [l.requestId, l]));
    expect(lines).toHaveLength(302);
    for (const r of [created, ...reads, odd]) expect(byId.has(r.requestId), r.requestId).toBe(true);
    const line = byId.get(created.requestId)!;
    expect(line).toMatchObject({
      level: 30,
      pid: expect.any(Number),
      hostname: os.hostname(),
      method: 'POST',
      path: '/v3/api/patients',
      status: 201,
      key: expect.any(Number),
      msg: 'request',
    });
    expect(line.time).toBeGreaterThan(Date.now() - 60_000);
    expect(typeof line.ms).toBe('number');
    expect(byId.get(odd.requestId)).toMatchObject({ path: '/v3/api/patients/%22x%5C"q\\', status: odd.status });
    for (const secret of [key, 'Zebedee', 'Quixotic', 'zebedee@example.com']) expect(text).not.toContain(secret);
  }, 60_000);

  test('LOG_SAMPLE_RATE=0: a successful read gets no line; an error answer, a refused key and a write always do', async () => {
    const s = await start({ LOG_SAMPLE_RATE: '0' });
    const read = await call(s, 'GET', '/me');
    const missing = await call(s, 'GET', '/patients/999999');
    const refused = await call(s, 'GET', '/me', { auth: 'sk_test_not_a_key' });
    const invalid = await call(s, 'POST', '/patients', { body: JSON.stringify({ first_name: '' }) });
    const created = await call(s, 'POST', '/patients', {
      body: JSON.stringify({ first_name: 'Sampled', last_name: 'Write' }),
    });
    expect([read.status, missing.status, refused.status, invalid.status, created.status]).toEqual([
      200, 404, 401, 422, 201,
    ]);
    const lines = requestLinesIn(await stop(s));
    expect(lines.map((l) => [l.requestId, l.method, l.status])).toEqual([
      [missing.requestId, 'GET', 404],
      [refused.requestId, 'GET', 401],
      [invalid.requestId, 'POST', 422],
      [created.requestId, 'POST', 201],
    ]);
    // Sampled lines say so, for counts to be scaled back.
    expect(lines.every((l) => l.sampleRate === 0)).toBe(true);
  }, 60_000);
});

/** A GET with a path Node's client would refuse to send as it is, over a plain socket. */
function rawGet(s: Spawned, p: string): Promise<{ status: number; requestId: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(s.port, '127.0.0.1', () =>
      socket.write(`GET ${p} HTTP/1.1\r\nHost: ${HOST}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`),
    );
    let text = '';
    socket.on('data', (c) => (text += c.toString()));
    socket.on('end', () =>
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]),
        requestId: /x-request-id: (\S+)/i.exec(text)?.[1] ?? '',
      }),
    );
    socket.on('error', reject);
  });
}

describe('LOG_SAMPLE_RATE', () => {
  const envOf = (vars: Record<string, string>) => loadEnv(vars as NodeJS.ProcessEnv);

  test('a share from 0 to 1, 0.1 (one successful read in ten) when unset or empty; anything else is refused at start-up, naming it', () => {
    expect(envOf({}).LOG_SAMPLE_RATE).toBe(0.1);
    expect(envOf({ LOG_SAMPLE_RATE: '' }).LOG_SAMPLE_RATE).toBe(0.1);
    expect(envOf({ LOG_SAMPLE_RATE: '1' }).LOG_SAMPLE_RATE).toBe(1);
    expect(envOf({ LOG_SAMPLE_RATE: '0.25' }).LOG_SAMPLE_RATE).toBe(0.25);
    for (const bad of ['2', '-0.1', 'half'])
      expect(() => envOf({ LOG_SAMPLE_RATE: bad })).toThrow(/LOG_SAMPLE_RATE: must be a number from 0 to 1/);
  });
});
