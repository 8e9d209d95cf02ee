/**
 * The request handler's own time, without sockets: the app's request listener called in-process with a
 * request and a response that write nowhere, 32 at a time (as 32 connections), for GET /ping and
 * GET /patients/{id}. What our code costs a request, apart from the kernel's reads and writes and
 * node's HTTP parser, which a load test on this 2-core machine measures only through its noise.
 *
 *   npx tsx bench/handler.ts [seconds=5] [ping|read]
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { createApp } from '../server/app';
import { loadEnv } from '../server/env';
import { LIFTED_LIMITS } from './limits';

const ROOT = path.join(import.meta.dirname, '..');
const DB_FILE = path.join(ROOT, 'data', 'bench', 'bench.db');
process.env.DATABASE_URL = DB_FILE;
const SECONDS = Number(process.argv[2] ?? 5);
const BATCH = 32;

const { prepareData } = await import('./seed-data');
const data = await prepareData(DB_FILE, { fresh: false });
const app = await createApp(
  loadEnv({
    ...process.env,
    ...LIFTED_LIMITS,
    LOG_LEVEL: 'silent',
    WEBHOOK_WORKER: 'off',
    JOBS: 'off',
  }),
);
const listener = app.server.listeners('request')[0] as (req: IncomingMessage, res: ServerResponse) => void;
const socket = { remoteAddress: '127.0.0.1', encrypted: false };

/** A GET on a keep-alive connection, as node:http hands it over: its headers parsed, its body ended. */
function request(url: string): IncomingMessage {
  const req = new EventEmitter() as unknown as IncomingMessage & { complete: boolean };
  Object.assign(req, {
    method: 'GET',
    url,
    headers: { host: data.host, authorization: `Bearer ${data.key}`, 'user-agent': 'bench' },
    socket,
    complete: true,
    readableEnded: true,
  });
  return req;
}

/** A response that keeps its status; `done` when it ends. */
function response(done: (status: number) => void): ServerResponse {
  let status = 0;
  const res = {
    headersSent: false,
    writeHead(code: number) {
      status = code;
      res.headersSent = true;
      return res;
    },
    setHeader() {},
    getHeader() {},
    end() {
      done(status);
    },
    destroy() {},
  };
  return res as unknown as ServerResponse;
}

async function run(label: string, nextUrl: () => string): Promise<void> {
  const once = () =>
    Promise.all(
      Array.from(
        { length: BATCH },
        () =>
          new Promise<void>((resolve, reject) =>
            listener(
              request(nextUrl()),
              response((s) => (s === 200 ? resolve() : reject(new Error(`${label}: status ${s}`)))),
            ),
          ),
      ),
    );
  const until = (ms: number) => Date.now() + ms;
  for (const end = until(1500); Date.now() < end;) await once();
  let n = 0;
  const started = process.hrtime.bigint();
  for (const end = until(SECONDS * 1000); Date.now() < end; n += BATCH) await once();
  const us = Number(process.hrtime.bigint() - started) / 1e3 / n;
  console.log(`${label.padEnd(24)} ${us.toFixed(2).padStart(6)} µs a request (${n} requests)`);
}

const only = process.argv[3];
if (only !== 'read') await run('GET /ping', () => '/v3/api/ping');
let i = 0;
if (only !== 'ping') await run('GET /patients/{id}', () => `/v3/api/patients/${data.firstId + (i++ % 100_000)}`);
await app.close();
process.exit(0);
