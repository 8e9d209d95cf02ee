/**
 * Test harness: a real server on an ephemeral port over the suite's database, tenants with keys, and
 * an HTTP client that sets the Host header (Node's fetch ignores it).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { and, asc, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { apiKeys, events, patients, practitionerAvailabilities } from '../../db/schema';
import { createApp, type App } from '../app';
import { createAccount, type NewAccount } from '../domain/accounts';
import { createKey, type Expiry } from '../domain/api_keys';
import { loadEnv } from '../env';
import { scopedKey } from '../rest/idempotency';
import type { Account, PauseHook } from '../context';
import type { FileStore } from '../files/store';

/**
 * The clinics this test file made (newClinic): its servers' drains deliver their messages alone. The
 * suite's files run side by side on one SQLite database, and a drain of another file would deliver a
 * message with that file's retry policy, or hold its lease while this file's drain finds nothing due.
 */
const madeHere = new Set<number>();

export interface TestServer {
  app: App;
  port: number;
  /** TRUST_PROXY is on: the server takes a client's address from X-Forwarded-For. */
  trustsProxy: boolean;
  close(): Promise<void>;
}

export async function startServer(
  overrides: Record<string, string> = {},
  opts: { files?: FileStore; pause?: PauseHook; now?: () => number } = {},
): Promise<TestServer> {
  const env = loadEnv({
    ...process.env,
    PORT: '0',
    RATE_LIMIT_REST_PER_MINUTE: '1000000',
    RATE_LIMIT_UNAUTH_PER_MINUTE: '1000000',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Webhook tests drain the worker themselves (app.webhooks.drain()); other files need no poller.
    WEBHOOK_WORKER: 'off',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    FILES_DIR: path.join(os.tmpdir(), 'clinic-test-files'),
    ...overrides,
  });
  const app = await createApp(env, {
    validateResponses: true,
    files: opts.files,
    pause: opts.pause,
    now: opts.now,
    claimFor: () => [...madeHere],
  });
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
  const port = (app.server.address() as AddressInfo).port;
  return { app, port, trustsProxy: env.TRUST_PROXY > 0, close: () => app.close() };
}

/** How many rows of `table` the clinic holds: what a refused write must leave unchanged. */
export async function clinicRows(
  server: TestServer,
  clinic: Clinic,
  table: typeof apiKeys | typeof events | typeof patients | typeof practitionerAvailabilities,
): Promise<number> {
  const [row] = await server.app.db.db
    .select({ n: count() })
    .from(table)
    .where(eq(table.account_id, clinic.account.id));
  return Number(row.n);
}

export const uniqueName = (prefix = 't') => `${prefix}${randomBytes(5).toString('hex')}`;

export interface Clinic {
  account: Account;
  host: string;
  key: string;
  readOnlyKey: string;
}

export async function newClinic(
  server: TestServer,
  opts: { seed?: boolean } & Partial<NewAccount> = {},
): Promise<Clinic> {
  const { seed, ...fields } = opts;
  const account = await createAccount(server.app.db, {
    subdomain: uniqueName(),
    region: 'neptune',
    name: 'Test Clinic',
    timezone: 'Europe/London',
    currency: 'GBP',
    ...fields,
  });
  madeHere.add(account.id);
  if (seed) await (await import('../seed')).seedAccount(server.app.db, account, server.app.files);
  const actor = { actor_type: 'user' as const, actor_id: null, actor_name: 'test' };
  const key = (await createKey(server.app.db, account, actor, { name: 'Test integration', access: 'read_write' }))
    .secret;
  const readOnlyKey = (await createKey(server.app.db, account, actor, { name: 'Read only', access: 'read_only' }))
    .secret;
  return { account, host: `${account.subdomain}.${account.region}.localhost`, key, readOnlyKey };
}

export async function issueKey(
  server: TestServer,
  clinic: Clinic,
  opts: { access?: 'read_write' | 'read_only'; expires?: Expiry; name?: string } = {},
) {
  return createKey(
    server.app.db,
    clinic.account,
    { actor_type: 'user', actor_id: null, actor_name: 'test' },
    { name: opts.name ?? 'Another', access: opts.access ?? 'read_write', expires: opts.expires },
  );
}

/**
 * How the server stores an Idempotency-Key sent with the clinic's read-write key (scoped to that key:
 * server/rest/idempotency.ts), for tests that read or plant stored answers.
 */
export async function storedIdempotencyKey(server: TestServer, clinic: Clinic, sent: string): Promise<string> {
  const [key] = await server.app.db.db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.account_id, clinic.account.id), eq(apiKeys.name, 'Test integration')));
  return scopedKey({ type: 'api_key', id: key.id }, sent);
}

export interface Res {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface RequestOptions {
  host?: string;
  key?: string | null;
  body?: unknown;
  /** Sent as-is (for malformed JSON and invalid UTF-8 tests). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

export function request(server: TestServer, method: string, path: string, opts: RequestOptions = {}): Promise<Res> {
  const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const headers: Record<string, string> = { host: opts.host ?? 'nobody.neptune.localhost', ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (payload !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  const url = /^\/(v3|developers|\.well-known)\//.test(path) ? path : `/v3/api${path}`;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, method, path: url, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let body: unknown = undefined;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode!, headers: res.headers, text, body });
      });
    });
    req.on('error', reject);
    // A request the server never answers fails here, clearly, rather than at the test's own timeout.
    req.setTimeout(10_000, () => req.destroy(new Error(`no response to ${method} ${url} within 10 s`)));
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

export interface Upload {
  name: string;
  type: string;
  bytes: Buffer;
}

/** A multipart/form-data body built by hand, so a test controls every byte: send it as `raw` with `headers`. */
export function multipart(
  fields: Record<string, string>,
  file?: Upload,
): { raw: Buffer; headers: Record<string, string> } {
  const boundary = '----clinic' + randomBytes(8).toString('hex');
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { raw: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A client bound to one clinic and key. */
export function client(server: TestServer, clinic: Clinic, key: string | null = clinic.key) {
  return lazyClient(
    () => server,
    () => clinic,
    key,
  );
}

export type Api = ReturnType<typeof client>;

/** A client that looks up its server and clinic at each call, so it can exist before they do. */
function lazyClient(server: () => TestServer, clinic: () => Clinic, key?: string | null) {
  const call =
    (method: string) =>
    (path: string, opts: Omit<RequestOptions, 'host' | 'key'> & { key?: string | null } = {}) =>
      request(server(), method, path, {
        host: clinic().host,
        key: opts.key !== undefined ? opts.key : key !== undefined ? key : clinic().key,
        ...opts,
      });
  return { get: call('GET'), post: call('POST'), patch: call('PATCH'), put: call('PUT'), delete: call('DELETE') };
}

export interface ClinicHarness {
  readonly server: TestServer;
  readonly clinic: Clinic;
  /** Usable at once: it reads the server and clinic when called. */
  readonly api: Api;
}

/**
 * The usual setup of a test file: a server on the suite's database and one clinic with its keys,
 * started before the file's tests and closed after them. `const t = useClinic({ seed: true })`, then
 * `t.api`, `t.server`, `t.clinic` inside tests and hooks.
 */
export function useClinic(
  opts: {
    env?: Record<string, string>;
    seed?: boolean;
    files?: FileStore;
    pause?: PauseHook;
    now?: () => number;
    clinic?: Partial<NewAccount>;
  } = {},
): ClinicHarness {
  let server: TestServer | undefined;
  let clinic: Clinic | undefined;
  const ready = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('useClinic: the server and clinic exist once beforeAll has run');
    return v;
  };
  beforeAll(async () => {
    server = await startServer(opts.env, { files: opts.files, pause: opts.pause, now: opts.now });
    clinic = await newClinic(server, { seed: opts.seed, ...opts.clinic });
  }, 60_000);
  afterAll(() => server?.close());
  const h: ClinicHarness = {
    get server() {
      return ready(server);
    },
    get clinic() {
      return ready(clinic);
    },
    api: lazyClient(
      () => ready(server),
      () => ready(clinic),
    ),
  };
  return h;
}

/** Asserts the error envelope: exactly message, code and (optionally) errors. */
export function expectError(res: Res, status: number, code: string) {
  if (res.status !== status || res.body?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${res.text}`);
  }
  const keys = Object.keys(res.body).sort();
  const allowed = ['code', 'errors', 'message'];
  if (!keys.every((k) => allowed.includes(k)) || typeof res.body.message !== 'string')
    throw new Error(`bad error body: ${res.text}`);
  if (res.headers['content-type']?.startsWith('application/json') !== true) throw new Error('error is not JSON');
}

/** A record's events in the outbox, oldest first. */
export function outboxEvents(server: TestServer, clinic: Clinic, entity: string, id: number) {
  return server.app.db.db
    .select()
    .from(events)
    .where(and(eq(events.account_id, clinic.account.id), eq(events.entity, entity), eq(events.entity_id, id)))
    .orderBy(asc(events.id));
}

/** The types of a record's events, oldest first. */
export const eventTypes = async (server: TestServer, clinic: Clinic, entity: string, id: number) =>
  (await outboxEvents(server, clinic, entity, id)).map((e) => e.type);
