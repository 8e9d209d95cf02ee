/**
 * The portal's transport: the portal router over HTTP at /developers/trpc on the clinic host, for the
 * pages' client components (@trpc/client). The tenant comes from the host as for the API; the member
 * from the session cookie. Every state-changing call must come from the portal's own origin (the Origin
 * header, which browsers always send on a cross-site POST), besides the SameSite=Lax cookie: a forged
 * form or fetch from another site is 403 csrf_failed before anything runs.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import type { Logger } from 'pino';
import type { DbHandle } from '../../db/client';
import { resumeSession, type SessionPolicy } from '../auth/sessions';
import { hasFormTemplates, stepsLeft } from '../domain/practice/checklist';
import { ANONYMOUS, type Ctx, type MemberPrincipal, type PortalIO } from '../context';
import type { Env } from '../env';
import { ApiError } from '../errors';
import type { FileStore } from '../files/store';
import { observing, traced, UNMATCHED, watch } from '../observability/hooks';
import { requestInfo, type RequestLike } from '../request-info';
import { createMailer } from '../mail';
import { toApiError } from '../rest/errors';
import { portalRouter } from '../routers/portal';
import type { TenantResolver } from '../tenancy';

export const PORTAL_PREFIX = '/developers';

/** What a page needs to know before it renders: whose portal, and who is signed in. */
export interface PageContext {
  account: { name: string; generation: 'current' | 'legacy' };
  member: MemberPrincipal | null;
  /** Steps of "Set up your clinic" not done yet (read when asked: only the portal's home needs it). */
  setupStepsLeft(): Promise<number>;
  /** Whether the clinic has form templates (written in its clinic software): the menu offers the page only then. */
  hasFormTemplates(): Promise<boolean>;
}
export const PORTAL_TRPC = `${PORTAL_PREFIX}/trpc`;
const API_PREFIX = '/v3/api';
/** Calls in one batched request (the pages never batch; tRPC clients may). */
export const MAX_BATCH = 10;

/** The procedure path of a call, decoded as tRPC decodes it; null when it cannot be decoded. */
function procedurePath(url: string): string | null {
  try {
    return decodeURIComponent(url.split('?')[0].slice(PORTAL_TRPC.length + 1));
  } catch {
    return null;
  }
}

/**
 * Why a request may not run, or null: a path that does not decode, a batch of more than MAX_BATCH
 * calls, or a batch with a session procedure among them (sign-in is throttled per call: a batch must
 * not carry many guesses). Read from the decoded path, the procedure list tRPC will run: an escaped
 * dot or comma is the same call.
 */
function batchRefusal(url: string, path: string | null): ApiError | null {
  if (path === null) return new ApiError('invalid_input', 'The procedure path is not valid percent-encoding');
  if (!new URLSearchParams(url.split('?')[1] ?? '').has('batch')) return null;
  const calls = path.split(',');
  if (calls.length > MAX_BATCH)
    return new ApiError('invalid_input', `At most ${MAX_BATCH} calls may be batched in one request`);
  if (calls.some((c) => c.startsWith('session.')))
    return new ApiError('invalid_input', 'Session calls (sign-in, sign-out) cannot be batched: send each on its own');
  return null;
}

export interface PortalOptions {
  db: DbHandle;
  files: FileStore;
  env: Env;
  logger: Logger;
  tenants: TenantResolver;
  now: () => number;
}

/**
 * The route label of a call, for metrics and traces: one of the router's procedures, a batch as one
 * label, and any other path as one (a path as sent is never a label).
 */
const PROCEDURES = new Set(Object.keys(portalRouter._def.procedures));
function routeOf(url: string): string {
  if (new URLSearchParams(url.split('?')[1] ?? '').has('batch')) return `${PORTAL_TRPC}/(batch)`;
  const name = procedurePath(url);
  return name !== null && PROCEDURES.has(name) ? `${PORTAL_TRPC}/${name}` : UNMATCHED;
}

/** The session cookie: `__Host-` prefixed and Secure under https (where browsers enforce both). */
export const cookieName = (secure: boolean) => (secure ? '__Host-clinic_session' : 'clinic_session');

/** A cookie value as sent; a malformed escape (a cookie no session of ours sets) is no session. */
function decodeCookie(value: string): string | null {
  try {
    return decodeURIComponent(value) || null;
  } catch {
    return null;
  }
}

export function sessionToken(cookieHeader: string | undefined, secure: boolean): string | null {
  const name = cookieName(secure);
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeCookie(part.slice(eq + 1).trim());
  }
  return null;
}

export function createPortal(opts: PortalOptions) {
  const { db, env, tenants, now } = opts;
  const info = requestInfo(env.TRUST_PROXY);
  const mailer = createMailer(env);
  const policy: SessionPolicy = { idleMs: env.SESSION_IDLE_MINUTES * 60_000, maxMs: env.SESSION_MAX_HOURS * 3_600_000 };

  const fail = (res: ServerResponse, error: ApiError) => {
    res.statusCode = error.status;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(JSON.stringify({ error: { message: error.message, data: { ...error.toBody(), status: error.status } } }));
  };

  /** The request's session cookie, and the session it still opens on this account (null once ended). */
  async function sessionOf(req: RequestLike, accountId: number, secure: boolean) {
    const token = sessionToken(req.headers.cookie, secure);
    return { token, session: token ? await resumeSession(db, accountId, token, now(), policy) : null };
  }

  /** The clinic of the host and who is signed in, for the pages' server components (server/portal/bridge.ts). */
  async function contextFor(req: RequestLike): Promise<PageContext | null> {
    // A clinic of a region this deployment does not serve has no pages here (the 404 page).
    const account = await tenants.resolve(info.host(req)).catch((err) => {
      if (err instanceof ApiError && err.code === 'wrong_region') return null;
      throw err;
    });
    if (!account) return null;
    const { session } = await sessionOf(req, account.id, info.proto(req) === 'https');
    return {
      account: { name: account.name, generation: account.generation },
      member: session?.stage === 'signed_in' ? session.member : null,
      setupStepsLeft: () => stepsLeft(db.db, account.id),
      hasFormTemplates: () => hasFormTemplates(db.db, account.id),
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    res.setHeader('X-Request-Id', requestId);
    if (observing.any) watch(req, res, routeOf(req.url ?? ''), 'portal');
    try {
      const host = info.host(req);
      const proto = info.proto(req);
      const account = await tenants.resolve(host);
      if (!account) return fail(res, new ApiError('not_found', 'No clinic at this address'));
      if (req.method !== 'GET' && req.method !== 'HEAD' && req.headers.origin !== `${proto}://${host}`) {
        return fail(
          res,
          new ApiError('csrf_failed', 'This request did not come from the portal page: reload the page and try again'),
        );
      }
      const path = procedurePath(req.url ?? '');
      const refused = batchRefusal(req.url ?? '', path);
      if (refused || path === null) return fail(res, refused!);
      const secure = proto === 'https';
      const { token, session } = await traced(
        'auth session',
        () => sessionOf(req, account.id, secure),
        (s) => ({ 'clinic.auth.outcome': s.session ? 'accepted' : s.token ? 'refused' : 'none' }),
      );
      const signedIn = session?.stage === 'signed_in' ? session : null;
      const portal: PortalIO = {
        sessionId: session?.sessionId ?? null,
        step:
          session && session.stage !== 'signed_in'
            ? { stage: session.stage, userId: session.userId, email: session.member.email, name: session.member.name }
            : null,
        origin: `${proto}://${host}`,
        mailer,
        clientIp: info.clientIp(req),
        clientKey: info.clientKey(req),
        userAgent: req.headers['user-agent'] ?? null,
        policy,
        allowPrivateWebhooks: env.WEBHOOKS_ALLOW_PRIVATE,
        webhookAttempts: env.WEBHOOK_RETRY_DELAYS.length,
        webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
        setSession: (value) => {
          const attrs = ['Path=/', 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])];
          const cookie =
            value === null
              ? `${cookieName(secure)}=; Max-Age=0`
              : `${cookieName(secure)}=${value}; Max-Age=${Math.floor(policy.maxMs / 1000)}`;
          res.setHeader('Set-Cookie', [cookie, ...attrs].join('; '));
        },
      };
      // A session that just ended (expired, idle, member deactivated) clears its cookie.
      if (token && !session) portal.setSession(null);
      const ctx: Ctx = {
        db,
        files: opts.files,
        account,
        principal: signedIn?.member ?? ANONYMOUS,
        requestId,
        baseUrl: `${proto}://${host}${API_PREFIX}`,
        now,
        portal,
      };
      res.setHeader('Cache-Control', 'no-store');
      await nodeHTTPRequestHandler({
        req,
        res,
        // tRPC decodes the path itself: it gets it as sent, and runs what procedurePath read.
        path: (req.url ?? '').split('?')[0].slice(PORTAL_TRPC.length + 1),
        router: portalRouter,
        maxBodySize: env.MAX_BODY_BYTES,
        maxBatchSize: MAX_BATCH,
        createContext: () => ctx,
        responseMeta: ({ errors }) => {
          if (!errors.length) return {};
          const { error } = toApiError(errors[0]);
          return { status: error.status, headers: error.headers };
        },
        onError: ({ error }) => {
          if (toApiError(error).internal) opts.logger.error({ err: error }, 'portal request failed');
        },
      });
    } catch (err) {
      if (!(err instanceof ApiError)) opts.logger.error({ err }, 'portal request failed');
      if (!res.headersSent) fail(res, toApiError(err).error);
      else res.destroy();
    }
  }

  return { handle, contextFor, policy };
}

export type Portal = ReturnType<typeof createPortal>;
