/**
 * The REST gateway for /v3/api: request id → tenant from Host → API key → rate-limit bucket →
 * route (404/405) → body → idempotency → procedure → `{ message, code, errors? }` on failure, with
 * X-Request-Id and X-RateLimit-* on every response. Built once at start-up; procedures are called
 * directly from the route table (no per-request router or caller construction).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import type { DbHandle } from '../../db/client';
import { Authenticator } from '../auth/authenticate';
import type { Account, Ctx, PauseHook, Principal } from '../context';
import type { Env } from '../env';
import type { FileStore } from '../files/store';
import { ApiError } from '../errors';
import { RESOURCES } from '../resources';
import { appRouter } from '../routers';
import { TenantResolver } from '../tenancy';
import { assertCanWrite } from '../trpc';
import { parseJsonObject, parseQuery, readBody } from './body';
import { isMultipart, readMultipart } from './multipart';
import { toApiError } from './errors';
import { checkKey, claim, complete, fingerprint } from './idempotency';
import { buildOpenApiDocument } from './openapi';
import { RateLimiter, type RateDecision } from './ratelimit';
import { RouteTable, type Route } from './routes';

export const API_PREFIX = '/v3/api';
const DOCS_PER_MINUTE = 60;
const WRITE_METHODS = new Set(['POST', 'PATCH', 'DELETE']);

export interface GatewayOptions {
  db: DbHandle;
  files: FileStore;
  env: Env;
  logger: Logger;
  /** Validate every response against its documented schema (tests); a mismatch is a 500. */
  validateResponses?: boolean;
  /** Test-only hook inside the domain's critical sections (server/domain/write-context.ts). */
  pause?: PauseHook;
}

export interface Gateway {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

interface Outcome {
  status: number;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

export function createGateway(opts: GatewayOptions): Gateway {
  const { db, env, logger } = opts;
  const routes = new RouteTable(appRouter);
  const tenants = new TenantResolver(db, env.SERVICE_DOMAIN);
  const onError = (err: unknown) => logger.error({ err }, 'background task failed');
  const auth = new Authenticator(db, onError);
  const limiter = new RateLimiter(db, onError);
  let openapi: string | null = null;
  // Requests still running, swept against REQUEST_TIMEOUT_MS by one timer (no timer per request).
  const pending = new Set<Pending>();
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const p of pending) {
      if (now - p.started < env.REQUEST_TIMEOUT_MS) continue;
      pending.delete(p);
      p.answered = true;
      send(p.res, errorOutcome(timeoutError(env.REQUEST_TIMEOUT_MS)), p.requestId, null);
    }
  }, Math.max(25, Math.min(1000, env.REQUEST_TIMEOUT_MS / 4)));
  sweeper.unref();

  const clientIp = (req: IncomingMessage) =>
    (env.TRUST_PROXY && String(req.headers['x-forwarded-for'] ?? '').split(',')[0].trim()) || req.socket.remoteAddress || 'unknown';
  const hostOf = (req: IncomingMessage) => (env.TRUST_PROXY && (req.headers['x-forwarded-host'] as string | undefined)) || req.headers.host;
  const protoOf = (req: IncomingMessage) =>
    (env.TRUST_PROXY && (req.headers['x-forwarded-proto'] as string | undefined)) || ((req.socket as TLSSocket).encrypted ? 'https' : 'http');

  /**
   * Every request is answered once, as JSON, within REQUEST_TIMEOUT_MS: a failure anywhere, even while
   * mapping an error, is the JSON 500; work still running at the deadline gets a 503 request_timeout
   * from the sweeper (it may still complete; an idempotent retry then replays it) and the connection is
   * closed.
   */
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    let rate = null as RateDecision | null;
    let principal = null as Principal | null;
    let outcome: Outcome;
    const deadline: Pending = { started: Date.now(), res, requestId, answered: false };
    pending.add(deadline);
    try {
      outcome = await run();
    } catch (err) {
      const { error, internal } = toApiError(err);
      if (internal) logger.error({ err, requestId }, 'request failed');
      outcome = errorOutcome(error);
    }
    pending.delete(deadline);
    // The sweeper answered 503 already; the work finished (or failed) after the deadline.
    if (deadline.answered) return void logger.warn({ requestId, status: outcome.status }, 'request finished after its deadline');
    try {
      send(res, outcome, requestId, rate);
    } catch (err) {
      logger.error({ err, requestId }, 'response failed');
      if (!res.headersSent) send(res, errorOutcome(new ApiError('internal_error', 'Internal server error; retry with backoff')), requestId, null);
      else res.destroy();
    }
    if (logger.isLevelEnabled('info')) {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ requestId, method: req.method, path: req.url?.split('?')[0], status: outcome.status, ms, key: principal?.id }, 'request');
    }

    async function run(): Promise<Outcome> {
      // HEAD is GET without the body (node:http leaves the body out of a response to HEAD).
      const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET').toUpperCase();
      const raw = req.url ?? '/';
      const q = raw.indexOf('?');
      const pathname = q < 0 ? raw : raw.slice(0, q);
      const search = q < 0 ? '' : raw.slice(q);
      const path = pathname.slice(API_PREFIX.length).replace(/\/+$/, '') || '/';

      if (path === '/openapi.json' && method === 'GET') {
        rate = await limiter.take(`docs:${clientIp(req)}`, DOCS_PER_MINUTE);
        if (!rate.allowed) throw rateLimited(rate);
        openapi ??= JSON.stringify(buildOpenApiDocument(routes));
        return { status: 200, body: openapi };
      }

      const account = await tenants.resolve(hostOf(req));
      const found = routes.match(method, path);
      const route = 'route' in found ? found.route : null;
      if (!account || (route && !route.protect && !req.headers.authorization)) {
        rate = await limiter.take(`unauth:${clientIp(req)}`, env.RATE_LIMIT_UNAUTH_PER_MINUTE);
        if (!rate.allowed) throw rateLimited(rate);
        if (!account) throw new ApiError('not_found', 'No clinic at this address: use https://{clinic}.{region}.' + env.SERVICE_DOMAIN + API_PREFIX);
      } else {
        principal = await auth.authenticate(req.headers.authorization, account.id);
        if (!principal) {
          rate = await limiter.take(`unauth:${clientIp(req)}`, env.RATE_LIMIT_UNAUTH_PER_MINUTE);
          if (!rate.allowed) throw rateLimited(rate);
          throw new ApiError('unauthenticated', 'Missing, invalid, expired or revoked API key: send Authorization: Bearer <API_KEY>');
        }
        rate = await limiter.take(`rest:${account.id}`, env.RATE_LIMIT_REST_PER_MINUTE);
        if (!rate.allowed) throw rateLimited(rate);
      }
      if (!('route' in found)) throw notRouted(method, path, found.allow);
      const ctx: Ctx = {
        db,
        files: opts.files,
        account: account!,
        principal: principal ?? anonymous,
        requestId,
        baseUrl: `${protoOf(req)}://${hostOf(req)}${API_PREFIX}`,
        pause: opts.pause,
      };
      // A read-only key is refused before its body is read or validated: any write is 403.
      if (found.route.type === 'mutation') assertCanWrite(ctx.principal);
      const query = search ? parseQuery(search) : {};
      if (!WRITE_METHODS.has(method) || method === 'DELETE') {
        return call(found.route, ctx, { ...query, ...found.params });
      }
      const { input, print: printable } = await readInput(found.route, req);
      Object.assign(input, found.params);
      const idemKey = req.headers['idempotency-key'];
      if (method !== 'POST' || idemKey === undefined) return call(found.route, ctx, input);
      const key = Array.isArray(idemKey) ? idemKey.join(',') : idemKey;
      checkKey(key);
      const print = fingerprint(method, path, printable);
      const replay = await claim(db, account!.id, key, print);
      if (replay) return { status: replay.status, body: replay.body || undefined, headers: { 'Idempotent-Replayed': 'true' } };
      let result: Outcome;
      try {
        result = await call(found.route, ctx, input);
      } catch (err) {
        const { error } = toApiError(err);
        const stored = error.status < 500 && error.code !== 'validation_failed' && error.status !== 429;
        await complete(db, account!.id, key, { status: error.status, body: JSON.stringify(error.toBody()) }, stored);
        throw err;
      }
      await complete(db, account!.id, key, { status: result.status, body: (result.body as string | undefined) ?? '' }, true);
      return result;
    }
  }

  /** The request body as procedure input, and what identifies it for idempotency. */
  async function readInput(route: Route, req: IncomingMessage): Promise<{ input: Record<string, unknown>; print: string }> {
    const type = req.headers['content-type'];
    if (route.multipart) {
      if (!isMultipart(type)) throw new ApiError('unsupported_media_type', 'Upload with Content-Type: multipart/form-data');
      const { fields, file } = await readMultipart(req, env.FILE_MAX_BYTES);
      const digest = file ? createHash('sha256').update(file.bytes).digest('hex') : null;
      return { input: { ...fields, ...(file ? { file } : {}) }, print: JSON.stringify({ fields, file: file && { name: file.name, digest } }) };
    }
    const body = parseJsonObject(await readBody(req, env.MAX_BODY_BYTES), type);
    return { input: body, print: JSON.stringify(body) };
  }

  async function call(route: Route, ctx: Ctx, input: Record<string, unknown>): Promise<Outcome> {
    const data = await route.procedure({
      ctx,
      getRawInput: async () => input,
      path: route.procedurePath,
      type: route.type,
      signal: undefined,
      batchIndex: 0,
    });
    if (opts.validateResponses && route.output && !route.binary) {
      const checked = route.output.safeParse(data);
      if (!checked.success) {
        logger.error({ issues: checked.error.issues, route: route.path }, 'response does not match its documented schema');
        throw new Error(`response of ${route.method} ${route.path} does not match its documented schema`);
      }
    }
    if (route.status === 204) return { status: 204 };
    if (route.binary) return binaryOutcome(data as { content_type: string; file_name: string; bytes: Buffer });
    return { status: route.status, body: JSON.stringify(data) };
  }

  return {
    handle,
    close: () => {
      clearInterval(sweeper);
      return limiter.close();
    },
  };
}

/** One writeHead with every header: cheaper than setHeader per header on the hot path. */
function send(res: ServerResponse, outcome: Outcome, requestId: string, rate: RateDecision | null): void {
  const headers: Record<string, string> = { 'X-Request-Id': requestId, 'Cache-Control': 'no-store' };
  if (rate) {
    headers['X-RateLimit-Limit'] = String(rate.limit);
    headers['X-RateLimit-Remaining'] = String(rate.remaining);
  }
  if (outcome.body !== undefined) {
    headers['Content-Type'] = 'application/json; charset=utf-8';
    headers['Content-Length'] = String(Buffer.byteLength(outcome.body));
  }
  res.writeHead(outcome.status, Object.assign(headers, outcome.headers));
  res.end(outcome.body);
}

interface Pending {
  started: number;
  res: ServerResponse;
  requestId: string;
  answered: boolean;
}

const timeoutError = (ms: number) => new ApiError('request_timeout', `No answer within ${ms} ms; retry with backoff (an Idempotency-Key makes a retried POST safe)`);

function binaryOutcome(file: { content_type: string; file_name: string; bytes: Buffer }): Outcome {
  const ascii = file.file_name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return {
    status: 200,
    body: file.bytes,
    headers: {
      'Content-Type': file.content_type,
      'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.file_name)}`,
      'X-Content-Type-Options': 'nosniff',
    },
  };
}

const anonymous: Principal = { type: 'api_key', id: 0, name: 'anonymous', scopes: [] };

function errorOutcome(error: ApiError): Outcome {
  const headers: Record<string, string> = {};
  if (error.status === 401) headers['WWW-Authenticate'] = 'Bearer realm="clinic-api"';
  // The request may still be streaming a body we stopped waiting for: end the connection with it.
  if (error.code === 'request_timeout') headers.Connection = 'close';
  const retry = (error as ApiError & { retryAfter?: number }).retryAfter;
  if (retry !== undefined) headers['Retry-After'] = String(retry);
  const allow = (error as ApiError & { allow?: string[] }).allow;
  if (allow) headers.Allow = allow.join(', ');
  return { status: error.status, body: JSON.stringify(error.toBody()), headers };
}

function rateLimited(rate: RateDecision): ApiError {
  const err = new ApiError('rate_limited', `Rate limit of ${rate.limit} requests per minute exceeded; retry after ${rate.retryAfter} s`);
  return Object.assign(err, { retryAfter: rate.retryAfter });
}

/** 404 for an unknown path; 405 for a known path and another method. */
function notRouted(method: string, path: string, allow: string[]): ApiError {
  if (allow.length === 0) return new ApiError('not_found', `No endpoint ${path}`);
  const name = path.split('/')[1];
  const resource = Object.hasOwn(RESOURCES, name) ? RESOURCES[name] : undefined;
  const standard = ['GET', 'POST', 'PATCH', 'DELETE'].includes(method);
  const err =
    resource && standard
      ? new ApiError('unsupported_operation', `${resource.name} does not support ${method} ${path}; see GET /schema/${resource.name} write_operations`)
      : new ApiError('method_not_allowed', `${method} is not valid for ${path}${method === 'PUT' ? '; updates are PATCH' : ''}`);
  return Object.assign(err, { allow });
}

export type { Account };
