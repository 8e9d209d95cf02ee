/**
 * The REST gateway for /v3/api, as named steps: resolve the tenant → authenticate → take from the
 * budget → route (404/405) → read the input → idempotency → call the procedure; `{ message, code,
 * errors? }` on failure, with X-Request-Id and X-RateLimit-* on every response. Built once at start-up;
 * procedures are called directly from the route table (no per-request router or caller construction).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Db, DbHandle } from '../../db/client';
import { joinedHandle } from '../../db/joined';
import { Authenticator } from '../auth/authenticate';
import { ANONYMOUS, type Account, type Ctx, type PauseHook, type Principal } from '../context';
import type { Env } from '../env';
import { DatabaseStore } from '../files/db-store';
import type { FileStore } from '../files/store';
import { ApiError } from '../errors';
import { RESOURCES } from '../resources';
import { deprecationHeaders, mayUseDeprecated, usedDeprecations, type Use } from '../resources/deprecation';
import { appRouter } from '../routers';
import { requestLines } from '../logger';
import { requestInfo } from '../request-info';
import type { TenantResolver } from '../tenancy';
import { assertCanWrite } from '../trpc';
import { refuseBadText } from '../values/text';
import { parseJsonObject, parseQuery, readBody } from './body';
import { keyView, narrowFeed, refuseOutsideKey } from './key-guard';
import { internalError, toApiError } from './errors';
import {
  checkKey,
  claimIn,
  complete,
  fingerprint,
  inFlight,
  KeyTaken,
  scopedKey,
  stored,
  storeRefusal,
} from './idempotency';
import { isMultipart, readMultipart } from './multipart';
import { buildOpenApiDocument } from './openapi';
import { operationOf } from './openapi/operation';
import { binaryOutcome, errorOutcome, rateLimited, send, timeoutError, type Outcome } from './outcome';
import { RateLimiter, type RateDecision } from './ratelimit';
import { loggedPath, timeOrderedId, type RequestLog } from './request-log';
import { RouteTable, type Route } from './routes';
import { observing } from '../observability/hooks';

export const API_PREFIX = '/v3/api';
const BODY_METHODS = new Set(['POST', 'PATCH']);

export interface GatewayOptions {
  db: DbHandle;
  files: FileStore;
  env: Env;
  logger: Logger;
  /** Validate every response against its documented schema (tests); a mismatch is a 500. */
  validateResponses?: boolean;
  /** Test-only hook inside the domain's critical sections (server/domain/write-context.ts). */
  pause?: PauseHook;
  /** Test-only: awaited once an idempotent write has committed, before it is answered (server/test/crash.test.ts kills the process there). */
  committed?: () => Promise<void>;
  /** Host → account, shared with the portal (one cache). */
  tenants: TenantResolver;
  /** The clock; tests move it (request-log retention). */
  now: () => number;
  /** Where each answered request of a known clinic is logged (the portal's request log). */
  requestLog?: RequestLog;
}

export interface Gateway {
  /** `headers`: what every answer carries besides the gateway's own (server/app.ts: the security headers). */
  handle(req: IncomingMessage, res: ServerResponse, headers?: Readonly<Record<string, string>>): Promise<void>;
  close(): Promise<void>;
}

/** One request on its way through the steps: what they learn, for the response and the log line. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** Headers every answer to it carries (handle's `headers`). */
  base: Readonly<Record<string, string>> | undefined;
  requestId: string;
  /** Since the epoch, for the deadline. */
  started: number;
  /** The sweeper answered it (503) while its work was still running. */
  answered: boolean;
  rate: RateDecision | null;
  principal: Principal | null;
  /** A key whose real secret was refused (revoked, expired): the request log names it. */
  refused: { keyId: number | null };
  /** The clinic of the host, once resolved. */
  account: Account | null;
  /** Deprecation, Sunset and Link: the request used something deprecated (server/resources/deprecation.ts). */
  deprecation: Record<string, string> | null;
  /** The matched route: set only while metrics or traces are on (server/observability). */
  route?: Route;
  /** The matched route's path template (/patients/{id}), for the request log; null for an unknown path. */
  template: string | null;
}

/** The method, path (below /v3/api, no trailing slash) and query string of a request. */
interface Target {
  method: string;
  path: string;
  search: string;
}

export function createGateway(opts: GatewayOptions): Gateway {
  const { db, env, logger } = opts;
  const routes = new RouteTable(appRouter);
  // What each route is, for the deprecated things a request to it uses.
  // Only routes that could use one are checked per request.
  const uses = new Map<Route, Use>(
    routes.routes
      .map((r) => [r, { ...operationOf(r), route: r.deprecated }] as const)
      .filter(([, use]) => mayUseDeprecated(use)),
  );
  const { tenants } = opts;
  const onError = (err: unknown) => logger.error({ err }, 'background task failed');
  // The line per request (server/logger.ts), or null when info lines are off.
  const requestLine = requestLines(logger, env.LOG_SAMPLE_RATE);
  const auth = new Authenticator(db, onError, opts.now);
  const limiter = new RateLimiter(db, onError, opts.now);
  let openapi: string | null = null;

  // Requests still running, swept against REQUEST_TIMEOUT_MS by one timer (no timer per request).
  const pending = new Set<Exchange>();
  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const x of pending) {
        if (now - x.started < env.REQUEST_TIMEOUT_MS) continue;
        pending.delete(x);
        x.answered = true;
        send(x.res, errorOutcome(timeoutError(env.REQUEST_TIMEOUT_MS)), x.requestId, x.rate, x.base);
      }
    },
    Math.max(25, Math.min(1000, env.REQUEST_TIMEOUT_MS / 4)),
  );
  sweeper.unref();

  const { clientIp, clientKey, host: hostOf, proto: protoOf } = requestInfo(env.TRUST_PROXY);
  observing.any?.routes?.(routes.routes);

  /**
   * Every request is answered once, as JSON, within REQUEST_TIMEOUT_MS: a failure anywhere, even while
   * mapping an error, is the JSON 500; work still running at the deadline gets a 503 request_timeout
   * from the sweeper (it may still complete; an idempotent retry then replays it) and the connection is
   * closed.
   */
  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
    base?: Readonly<Record<string, string>>,
  ): Promise<void> {
    const hrStart = process.hrtime.bigint();
    // The id carries the arrival on the app's clock, the one the request log stamps rows with: the log finds
    // a request id within minutes of that time (server/domain/request_log.ts).
    const x: Exchange = {
      req,
      res,
      base,
      requestId: timeOrderedId(opts.now()),
      started: Date.now(),
      answered: false,
      template: null,
      rate: null,
      principal: null,
      refused: { keyId: null },
      account: null,
      deprecation: null,
    };
    pending.add(x);
    let outcome: Outcome;
    try {
      outcome = await run(x);
    } catch (err) {
      const { error, internal } = toApiError(err);
      if (internal) logger.error({ err, requestId: x.requestId }, 'request failed');
      outcome = errorOutcome(error);
    }
    if (x.deprecation) outcome.headers = { ...outcome.headers, ...x.deprecation };
    pending.delete(x);
    if (x.answered) {
      logger.warn({ requestId: x.requestId, status: outcome.status }, 'request finished after its deadline');
      // The client got the sweeper's 503: that is what the request log shows (with how long the work took).
      outcome = errorOutcome(timeoutError(env.REQUEST_TIMEOUT_MS));
    } else {
      try {
        send(res, outcome, x.requestId, x.rate, base);
      } catch (err) {
        logger.error({ err, requestId: x.requestId }, 'response failed');
        if (!res.headersSent) send(res, errorOutcome(internalError()), x.requestId, null, base);
        else res.destroy();
      }
    }
    const ms = Number(process.hrtime.bigint() - hrStart) / 1e6;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (requestLine) requestLine(x.requestId, req.method ?? 'GET', path, outcome.status, ms, x.principal?.id);
    if (observing.any)
      observing.any.request(x.route?.path, req.method, path, outcome.status, ms, x.principal !== null, x.requestId);
    // An unauthenticated refusal of the spent budget is not stored: the budget already counts the
    // address, and an outsider's flood must not fill a clinic's log (what it let through is stored).
    const floodRefusal = x.principal === null && outcome.status === 429;
    if (x.account && opts.requestLog && !floodRefusal) {
      // A revoked or expired key's call is logged under that key: the log names what was refused.
      const keyId = x.principal?.type === 'api_key' && x.principal.id > 0 ? x.principal.id : x.refused.keyId;
      // What the request already holds; the log redacts the query and reads the error when it writes the batch.
      const errorBody = outcome.status >= 400 && typeof outcome.body === 'string' ? outcome.body : null;
      opts.requestLog.add([
        x.account.id,
        keyId,
        req.method ?? 'GET',
        loggedPath(path, x.template),
        q < 0 ? null : url.slice(q + 1),
        outcome.status,
        errorBody,
        Math.round(ms),
        x.requestId,
        clientIp(req),
        opts.requestLog.timestamp(),
      ]);
    }
  }

  async function run(x: Exchange): Promise<Outcome> {
    const target = targetOf(x.req);
    if (target.path === '/openapi.json' && target.method === 'GET') {
      x.template = target.path;
      return serveDocs(x);
    }
    const account = (x.account = await tenants.resolve(hostOf(x.req)));
    const found = routes.match(target.method, target.path);
    if ('route' in found) x.template = found.route.path;
    if (observing.any && 'route' in found) x.route = found.route;
    await admit(x, account, 'route' in found ? found.route : null);
    if (!('route' in found)) throw notRouted(target, found.allow);
    const ctx = contextOf(x, account!);
    // A key outside its networks or groups, or a read-only key writing, is refused before its body is
    // read or validated.
    refuseOutsideKey(x.principal, found.route, clientIp(x.req));
    if (found.route.type === 'mutation') assertCanWrite(ctx.principal);
    if (!BODY_METHODS.has(target.method)) {
      const input = { ...(target.search ? parseQuery(target.search) : {}), ...found.params };
      refuseBadText(input);
      narrowFeed(x.principal, found.route, input);
      announceDeprecations(x, found.route, ctx, input);
      return withEtag(x.req, found.route, await call(found.route, ctx, input));
    }
    const { input, print } = await readInput(found.route, x.req);
    Object.assign(input, found.params);
    refuseBadText(input);
    announceDeprecations(x, found.route, ctx, input);
    return idempotent(x, target, print, ctx, (c) => call(found.route, c, input));
  }

  /** The request used deprecated things (its route, a filter, an attribute): its answer, whatever it is, says so. */
  function announceDeprecations(x: Exchange, route: Route, ctx: Ctx, input: Record<string, unknown>): void {
    const use = uses.get(route);
    if (!use) return;
    const used = usedDeprecations(use, input);
    if (used.length) x.deprecation = deprecationHeaders(used, `${ctx.baseUrl}/changelog`);
  }

  /** The OpenAPI document: public, in a bucket of its own per client address. */
  async function serveDocs(x: Exchange): Promise<Outcome> {
    await takeBudget(x, `docs:${clientKey(x.req)}`, env.RATE_LIMIT_DOCS_PER_MINUTE);
    openapi ??= JSON.stringify(buildOpenApiDocument(routes));
    return etagged(x.req, { status: 200, body: openapi });
  }

  /**
   * Who may go on, and out of which budget: an unknown clinic host, a public route called without a
   * key, or a failed authentication count against the caller's address (2 a minute); an authenticated
   * key against its account's REST budget.
   */
  async function admit(x: Exchange, account: Account | null, route: Route | null): Promise<void> {
    // A public document (the changelog) read without a key: the documents' own budget, like the OpenAPI
    // document's, not the 2 a minute of unauthenticated calls (a person reads it more often than that).
    if (account && route && !route.protect && route.cacheable && !x.req.headers.authorization)
      return takeBudget(x, `docs:${clientKey(x.req)}`, env.RATE_LIMIT_DOCS_PER_MINUTE);
    if (!account || (route && !route.protect && !x.req.headers.authorization)) {
      await takeBudget(x, `unauth:${clientKey(x.req)}`, env.RATE_LIMIT_UNAUTH_PER_MINUTE);
      if (!account)
        throw new ApiError(
          'not_found',
          `No clinic at this address: use https://{clinic}.{region}.${env.SERVICE_DOMAIN}${API_PREFIX}`,
        );
      return;
    }
    x.principal = await auth.authenticate(x.req.headers.authorization, account.id, x.refused);
    if (!x.principal) {
      await takeBudget(x, `unauth:${clientKey(x.req)}`, env.RATE_LIMIT_UNAUTH_PER_MINUTE);
      throw new ApiError(
        'unauthenticated',
        'Missing, invalid, expired or revoked API key: send Authorization: Bearer <API_KEY>',
      );
    }
    await takeBudget(x, `rest:${account.id}`, env.RATE_LIMIT_REST_PER_MINUTE);
  }

  /** One request from a bucket; over the limit is 429 with Retry-After. The decision goes on the response. */
  async function takeBudget(x: Exchange, bucket: string, limit: number): Promise<void> {
    x.rate = await limiter.take(bucket, limit);
    if (!x.rate.allowed) throw rateLimited(x.rate);
  }

  function contextOf(x: Exchange, account: Account): Ctx {
    return {
      db,
      files: opts.files,
      account,
      principal: x.principal ?? ANONYMOUS,
      requestId: x.requestId,
      baseUrl: `${protoOf(x.req)}://${hostOf(x.req)}${API_PREFIX}`,
      pause: opts.pause,
      now: opts.now,
    };
  }

  /** The request body as procedure input, and what identifies it for idempotency. */
  async function readInput(
    route: Route,
    req: IncomingMessage,
  ): Promise<{ input: Record<string, unknown>; print: string }> {
    const type = req.headers['content-type'];
    if (route.multipart) {
      if (!isMultipart(type))
        throw new ApiError('unsupported_media_type', 'Upload with Content-Type: multipart/form-data');
      const { fields, file } = await readMultipart(req, env.FILE_MAX_BYTES);
      const digest = file ? createHash('sha256').update(file.bytes).digest('hex') : null;
      return {
        input: { ...fields, ...(file ? { file } : {}) },
        print: JSON.stringify({ fields, file: file && { name: file.name, digest } }),
      };
    }
    const body = parseJsonObject(await readBody(req, env.MAX_BODY_BYTES), type);
    return { input: body, print: JSON.stringify(body) };
  }

  /**
   * A POST with an Idempotency-Key runs once: a retry replays the stored answer. The procedure runs in
   * one transaction with the storing of its answer, so a write that committed always has its answer to
   * replay, even if the process died before sending it. Refusals that a corrected retry should be able
   * to fix (validation, rate limits, server errors) are not stored.
   */
  async function idempotent(
    x: Exchange,
    target: Target,
    printable: string,
    ctx: Ctx,
    work: (ctx: Ctx) => Promise<Outcome>,
  ): Promise<Outcome> {
    const header = x.req.headers['idempotency-key'];
    if (target.method !== 'POST' || header === undefined) return work(ctx);
    const sent = Array.isArray(header) ? header.join(',') : header;
    checkKey(sent);
    // Each API key is one integration: its keys are its own, and another key's same value is another key.
    const key = scopedKey(ctx.principal, sent);
    const account = ctx.account.id;
    const print = fingerprint(target.method, target.path, printable);
    // Twice at most: a request that committed the key between the look and the claim is replayed.
    for (let attempt = 0; attempt < 2; attempt++) {
      const replay = await stored(db, account, key, print);
      if (replay)
        return { status: replay.status, body: replay.body || undefined, headers: { 'Idempotent-Replayed': 'true' } };
      let result: Outcome;
      try {
        result = await db.transaction(async (tx) => {
          const claimed = await claimIn(tx, account, key, print);
          const outcome = await work(joined(ctx, tx));
          await complete(tx, claimed, { status: outcome.status, body: (outcome.body as string | undefined) ?? '' });
          return outcome;
        });
      } catch (err) {
        if (err instanceof KeyTaken) continue;
        // Nothing of the write committed, its claim neither: the refusal is stored for replay, or the key
        // is left free for a corrected retry.
        await storeRefusal(db, account, key, print, toApiError(err).error);
        throw err;
      }
      await opts.committed?.();
      return result;
    }
    throw inFlight();
  }

  /**
   * The context of a procedure run inside `tx`: its transactions become savepoints of `tx`, and its
   * reads see what it wrote. File bytes kept in the database go into `tx` too (through the store's own
   * handle they would wait for `tx` to end, on SQLite for ever).
   */
  function joined(ctx: Ctx, tx: Db): Ctx {
    const within = joinedHandle(db, tx);
    return { ...ctx, db: within, files: opts.files instanceof DatabaseStore ? new DatabaseStore(within) : opts.files };
  }

  async function call(route: Route, ctx: Ctx, input: Record<string, unknown>): Promise<Outcome> {
    const data = keyView(ctx.principal, route, await route.invoke(ctx, input));
    if (opts.validateResponses && route.output && !route.binary) {
      const checked = route.output.safeParse(data);
      if (!checked.success) {
        logger.error(
          { issues: checked.error.issues, route: route.path },
          'response does not match its documented schema',
        );
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

/**
 * A cacheable route's answer with a strong ETag of its body; a request that already holds it
 * (If-None-Match, RFC 9110 §13.1.2: weak comparison, a list, or *) gets 304 with no body.
 */
function withEtag(req: IncomingMessage, route: Route, outcome: Outcome): Outcome {
  return route.cacheable ? etagged(req, outcome) : outcome;
}

/** A 200 with an ETag of its body, or 304 to a request that holds it (If-None-Match). */
function etagged(req: IncomingMessage, outcome: Outcome): Outcome {
  if (outcome.status !== 200 || typeof outcome.body !== 'string') return outcome;
  const etag = `"${createHash('sha256').update(outcome.body).digest('base64url').slice(0, 27)}"`;
  const headers = { ...outcome.headers, ETag: etag, 'Cache-Control': 'public, max-age=300' };
  const held = req.headers['if-none-match']?.split(',').map((t) => t.trim().replace(/^W\//, ''));
  return held && (held.includes(etag) || held.includes('*')) ? { status: 304, headers } : { ...outcome, headers };
}

function targetOf(req: IncomingMessage): Target {
  // HEAD is GET without the body (node:http leaves the body out of a response to HEAD).
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET').toUpperCase();
  const raw = req.url ?? '/';
  const q = raw.indexOf('?');
  const pathname = q < 0 ? raw : raw.slice(0, q);
  return {
    method,
    path: pathname.slice(API_PREFIX.length).replace(/\/+$/, '') || '/',
    search: q < 0 ? '' : raw.slice(q),
  };
}

/** 404 for an unknown path; 405 for a known path and another method, with Allow. */
function notRouted({ method, path }: Target, allow: string[]): ApiError {
  if (allow.length === 0) return new ApiError('not_found', `No endpoint ${path}`);
  const name = path.split('/')[1];
  const resource = Object.hasOwn(RESOURCES, name) ? RESOURCES[name] : undefined;
  const headers = { Allow: allow.join(', ') };
  return resource && ['GET', 'POST', 'PATCH', 'DELETE'].includes(method)
    ? new ApiError(
        'unsupported_operation',
        `${resource.name} does not support ${method} ${path}; see GET /schema/${resource.name} write_operations`,
        undefined,
        { headers },
      )
    : new ApiError(
        'method_not_allowed',
        `${method} is not valid for ${path}${method === 'PUT' ? '; updates are PATCH' : ''}`,
        undefined,
        { headers },
      );
}

export type { Account };
