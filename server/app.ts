/**
 * Builds the API server: database (migrated), shared secrets, and the REST gateway on a node:http
 * server. `fallback` receives every request outside /v3/api (Next's handler in server/main.ts);
 * tests run without it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { asciiOnlyCase } from '../db/character-type';
import { openDb, type DbHandle } from '../db/client';
import { sharedSetting } from '../db/settings';
import type { PauseHook } from './context';
import { statementTimeoutFor, type Env } from './env';
import { fileStoreFor } from './files/db-store';
import type { FileStore } from './files/store';
import { setCursorSecret } from './list/cursor';
import { createLogger } from './logger';
import { API_PREFIX, createGateway, type Gateway } from './rest/gateway';
import { ApiError } from './errors';
import { createHealth, isHealthPath } from './health';
import { errorOutcome, rateLimited, send } from './rest/outcome';
import { RequestLog } from './rest/request-log';
import { createPortal, PORTAL_TRPC, type Portal } from './portal/handler';
import { createMcpEndpoint } from './mcp/endpoint';
import { createOAuthServer, isOAuthPath } from './oauth/handler';
import { MCP_PATH } from './oauth/urls';
import { RateLimiter, type RateDecision } from './rest/ratelimit';
import { TenantResolver } from './tenancy';
import { requestInfo } from './request-info';
import { AppResponse } from './response';
import { securityHeaders, setSecurityHeaders } from './security-headers';
import { answerClientError } from './client-error';
import { loadSecretsKey } from './auth/secrets';
import { policyOf, WebhookWorker } from './webhooks/worker';
import { createScheduler } from './jobs';
import type { Scheduler } from './scheduler/scheduler';

export interface App {
  server: http.Server;
  db: DbHandle;
  files: FileStore;
  gateway: Gateway;
  portal: Portal;
  requestLog: RequestLog;
  /** The webhook delivery worker (running when WEBHOOK_WORKER is on; tests drain it by hand). */
  webhooks: WebhookWorker;
  /** The periodic jobs (running when JOBS is on; tests tick it by hand). */
  jobs: Scheduler;
  /** Stops accepting, lets in-flight requests finish within `graceMs`, then flushes buffers and closes the database. */
  close(opts?: { graceMs?: number }): Promise<void>;
}

/**
 * Stops accepting connections; idle keep-alive connections close at once and busy ones as soon as
 * their response is sent; whatever is still open after `graceMs` is closed.
 */
function stopServing(server: http.Server, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const bound = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(bound);
      resolve();
    });
    server.closeIdleConnections();
  });
}

type Fallback = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** The cursor-signing secret: from the environment, else generated once and shared through the database. */
async function initSecrets(db: DbHandle, env: Env) {
  if (env.CURSOR_SECRET) return setCursorSecret(env.CURSOR_SECRET);
  setCursorSecret(await sharedSetting(db, 'cursor_secret', randomBytes(32).toString('base64url')));
}

export interface AppOptions {
  fallback?: Fallback;
  validateResponses?: boolean;
  files?: FileStore;
  pause?: PauseHook;
  /** Test-only: awaited between an idempotent write's commit and its answer (server/test/crash.test.ts). */
  committed?: () => Promise<void>;
  /** The clock; tests move it to prove session expiry, throttling windows and log retention. */
  now?: () => number;
  /**
   * Test-only: the clinics whose webhook messages this server's worker claims. The suite's files share
   * one SQLite database side by side, and a drain in one file must not deliver another's messages with
   * its own retry policy (server/test/helpers.ts passes the clinics the file made).
   */
  claimFor?: () => readonly number[];
}

export async function createApp(env: Env, opts: AppOptions = {}): Promise<App> {
  const logger = createLogger(env.LOG_LEVEL);
  const db = await openDb(env.DATABASE_URL, {
    migrate: true,
    poolSize: env.DATABASE_POOL_SIZE,
    pooler: env.DATABASE_POOLER,
    busyTimeoutMs: env.SQLITE_BUSY_TIMEOUT_MS,
    statementTimeoutMs: statementTimeoutFor(env),
    onIdleError: (err) => logger.warn({ err }, 'idle database connection lost; the pool replaces it'),
  });
  const ctype = await asciiOnlyCase(db);
  if (ctype)
    logger.warn(
      { ctype },
      'the database lowercases only ASCII (LC_CTYPE C): contains filters miss non-ASCII names in another case; recreate it with LC_CTYPE C.UTF-8 (docs/operations.md)',
    );
  await initSecrets(db, env);
  await loadSecretsKey(db, env);
  const files = opts.files ?? fileStoreFor(env, db);
  const now = opts.now ?? Date.now;
  const onError = (err: unknown) => logger.error({ err }, 'background task failed');
  const requestLog = new RequestLog(db, now, onError);
  const tenants = new TenantResolver(db, env.SERVICE_DOMAIN, env.SERVICE_REGIONS);
  const gateway = createGateway({
    db,
    env,
    logger,
    files,
    tenants,
    validateResponses: opts.validateResponses,
    pause: opts.pause,
    committed: opts.committed,
    now,
    requestLog: env.REQUEST_LOG ? requestLog : undefined,
  });
  const portal = createPortal({ db, env, logger, files, now, tenants });
  // The MCP budget and the registration limits: buckets of their own, apart from the REST budget.
  const limiter = new RateLimiter(db, onError, now);
  const mcp = createMcpEndpoint({ db, env, logger, tenants, limiter });
  const oauth = createOAuthServer({ db, env, logger, tenants, limiter });
  const webhooks = new WebhookWorker(
    db,
    policyOf(env),
    now,
    (err) => logger.error({ err }, 'webhook delivery failed'),
    opts.claimFor,
  );
  const health = createHealth(db, logger);
  const { clientKey, host: hostOf, proto: protoOf } = requestInfo(env.TRUST_PROXY);

  /**
   * 421 for another region's clinic host. No clinic of this deployment is named, so, like a request for
   * an unknown clinic, it takes from the address's unauthenticated budget (429 once spent). Should the
   * budget fail, the 421 is still the answer: it needs nothing else.
   */
  async function misdirect(req: IncomingMessage, res: ServerResponse, error: ApiError): Promise<void> {
    let rate: RateDecision | null = null;
    try {
      rate = await limiter.take(`unauth:${clientKey(req)}`, env.RATE_LIMIT_UNAUTH_PER_MINUTE);
    } catch (err) {
      logger.error({ err }, 'rate limit of a misdirected request failed');
    }
    send(res, errorOutcome(rate && !rate.allowed ? rateLimited(rate) : error), randomUUID(), rate);
  }

  const server = http.createServer({ ServerResponse: AppResponse }, (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    // The REST API (MCP has a path below it) of a clinic of this region: the gateway writes the security
    // headers into its one head.
    const isMcp = path === MCP_PATH || path === `${MCP_PATH}/`;
    const rest = (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) && !isMcp;
    if (rest && !tenants.misdirected(hostOf(req))) return void gateway.handle(req, res, securityHeaders(protoOf(req)));
    // Before dispatch, so every response carries them (server/security-headers.ts).
    setSecurityHeaders(res, protoOf(req));
    // Probes reach the process at whatever address: answered before the host is looked at.
    if (isHealthPath(path)) return void health.handle(req, res, path);
    // One deployment per region: every path of another region's clinic host is misdirected here.
    const misdirected = tenants.misdirected(hostOf(req));
    if (misdirected) {
      void misdirect(req, res, misdirected);
    } else if (isMcp) {
      void mcp.handle(req, res);
    } else if (isOAuthPath(path)) {
      void oauth.handle(req, res);
    } else if (url.startsWith(`${PORTAL_TRPC}/`)) {
      void portal.handle(req, res);
    } else if (opts.fallback) {
      res.setHeader('X-Request-Id', randomUUID());
      void opts.fallback(req, res);
    } else {
      send(res, errorOutcome(new ApiError('not_found', 'Not found')), randomUUID(), null);
    }
  });
  server.on('clientError', answerClientError);
  server.keepAliveTimeout = 65_000;
  // Sweeps, clinic jobs and, where WEBHOOK_WORKER is on, the delivery loop: every process runs the
  // scheduler, a lease per job lets one of them run it (server/jobs/).
  const jobs = createScheduler(db, {
    now,
    webhooks: env.WEBHOOK_WORKER ? webhooks : undefined,
    onError: (err, job) => logger.error({ err, job }, 'background job failed'),
  });
  if (env.JOBS || env.WEBHOOK_WORKER) jobs.start({ periodic: env.JOBS });
  return {
    server,
    db,
    files,
    gateway,
    portal,
    requestLog,
    webhooks,
    jobs,
    async close({ graceMs = 10_000 } = {}) {
      await jobs.stop();
      await webhooks.stop();
      await stopServing(server, graceMs);
      await mcp.close();
      await gateway.close();
      await limiter.close();
      await requestLog.close();
      await db.close();
    },
  };
}
