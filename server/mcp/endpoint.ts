/**
 * POST {base_url}/mcp on each clinic host: the MCP server (SDK v2, stateless; a one-message event stream
 * when the client accepts one, else JSON; the 2026-07-28 revision and 2025-era clients alike) behind OAuth
 * bearer tokens issued for this clinic's MCP resource. API keys are not accepted here. In order: CORS
 * preflight → tenant → method (POST) → Origin → bearer token (audience, scope) → the approving member
 * (active, may connect) → the account's MCP budget → the SDK. Every refusal is the API's error body
 * `{message, code}`.
 *
 * CORS is open (browser-based MCP clients): a request is served only with a bearer token, which a
 * browser never attaches by itself (no cookie or other ambient credential is read here), so a page of
 * another origin can act only with a token it was given. The Origin rule (DNS rebinding, cross-site
 * requests) therefore refuses a foreign Origin only on requests without a bearer token.
 * An unknown clinic host, a missing or invalid token and a deactivated member's token (every 401 and the
 * 404) take from the caller's unauthenticated budget (RATE_LIMIT_UNAUTH_PER_MINUTE per address, the
 * bucket the REST gateway uses): over it, 429 with Retry-After.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, type AuthInfo } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { Logger } from 'pino';
import type { DbHandle } from '../../db/client';
import { activeMember } from '../auth/members';
import type { Env } from '../env';
import { ApiError, type ErrorCode } from '../errors';
import { lookupAccessToken, mayConnect, touchGrant } from '../oauth/grants';
import { traced, watch } from '../observability/hooks';
import { canonicalResource, MCP_PATH, oauthUrls, SCOPES, type OAuthUrls } from '../oauth/urls';
import { requestInfo } from '../request-info';
import { internalError, toApiError } from '../rest/errors';
import { errorOutcome, send } from '../rest/outcome';
import type { RateLimiter } from '../rest/ratelimit';
import type { TenantResolver } from '../tenancy';
import type { Connector } from './connector';
import { buildServer } from './server';

const TOUCH_EVERY_MS = 60_000;
const ALLOW = 'POST, OPTIONS';

/**
 * On every answer. `*`, never credentials: nothing here is read from cookies. Exposed: the challenge
 * (discovery and re-authorization), the budget headers and the request id. No Mcp-Session-Id: the
 * server is stateless and issues none.
 */
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'WWW-Authenticate, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-Request-Id',
};
/** What a preflight allows when it names no headers (the ones MCP clients send, both revisions). */
const PREFLIGHT_HEADERS =
  'Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID';
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/**
 * The answer to a CORS preflight: POST with the headers asked for (the 2026 revision mirrors tool
 * arguments in Mcp-Param-* headers, whose names depend on the tool), for a day.
 */
function preflight(req: IncomingMessage, res: ServerResponse) {
  const asked = (req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => HEADER_NAME.test(h));
  res.writeHead(204, {
    Allow: ALLOW,
    'Access-Control-Allow-Methods': ALLOW,
    'Access-Control-Allow-Headers': asked.length ? asked.join(', ') : PREFLIGHT_HEADERS,
    'Access-Control-Max-Age': '86400',
    'Cache-Control': 'no-store',
  });
  res.end();
}

/** The serialized origin of a URL (scheme, host, port; default ports dropped, host lower-cased), or null. */
function originOf(raw: string): string | null {
  try {
    const origin = new URL(raw).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

export interface McpEndpoint {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

export function createMcpEndpoint(opts: {
  db: DbHandle;
  env: Env;
  logger: Logger;
  tenants: TenantResolver;
  limiter: RateLimiter;
}): McpEndpoint {
  const { db, env, logger, tenants, limiter } = opts;
  const info = requestInfo(env.TRUST_PROXY);
  const onerror = (err: Error) => logger.warn({ err }, 'mcp request refused or failed');
  const mcp = createMcpHandler(
    ({ authInfo }) =>
      buildServer(authInfo!.extra!.connector as Connector, (err) => logger.error({ err }, 'mcp tool failed')),
    { onerror, maxRequestBodySize: env.MAX_BODY_BYTES },
  );
  const node = toNodeHandler(mcp, { onerror, maxRequestBodySize: env.MAX_BODY_BYTES });
  const touched = new Map<number, number>();

  /**
   * The API's error answer (the gateway's own: JSON, X-Request-Id, no-store), with the challenge headers.
   * A refusal that has taken from no budget yet (the request was not admitted to the account's MCP
   * budget) takes from the address's unauthenticated budget, so that every refusal shows a budget; a 5xx
   * is the server's fault and costs nothing. Never rejects.
   */
  async function refuse(
    res: ServerResponse,
    code: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
  ): Promise<void> {
    let error = new ApiError(code, message, undefined, { headers });
    if (error.status < 500 && !res.hasHeader('X-RateLimit-Limit')) {
      try {
        if (!(await unauthenticatedBudget(res.req, res))) return;
      } catch (err) {
        logger.error({ err }, 'mcp request failed');
        error = internalError();
      }
    }
    if (!res.headersSent) send(res, errorOutcome(error), String(res.getHeader('X-Request-Id')), null);
  }

  /**
   * A request that is not (or no longer) authenticated takes from its address's unauthenticated budget;
   * false when it is spent, and the 429 is answered.
   */
  async function unauthenticatedBudget(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const rate = await limiter.take(`unauth:${info.clientKey(req)}`, env.RATE_LIMIT_UNAUTH_PER_MINUTE);
    res.setHeader('X-RateLimit-Limit', String(rate.limit));
    res.setHeader('X-RateLimit-Remaining', String(rate.remaining));
    if (!rate.allowed)
      refuse(
        res,
        'rate_limited',
        `Rate limit of ${rate.limit} unauthenticated requests per minute exceeded; retry after ${rate.retryAfter} s`,
        { 'Retry-After': String(rate.retryAfter) },
      );
    return rate.allowed;
  }

  /** RFC 6750 / RFC 9728: where to find the authorization server, and the scope to ask for. */
  const challenge = (urls: OAuthUrls, error?: string) =>
    `Bearer resource_metadata="${urls.resourceMetadata}", scope="${SCOPES.join(' ')}"${error ? `, error="${error}"` : ''}`;
  const inactive = (res: ServerResponse, urls: OAuthUrls) =>
    refuse(res, 'user_inactive', 'The team member who connected this app was deactivated', {
      'WWW-Authenticate': challenge(urls, 'invalid_token'),
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('X-Request-Id', randomUUID());
    watch(req, res, MCP_PATH, 'mcp');
    for (const [name, value] of Object.entries(CORS)) res.setHeader(name, value);
    try {
      if (req.method === 'OPTIONS') return preflight(req, res);
      const host = info.host(req);
      const account = await tenants.resolve(host);
      // The clinic's own origin; a Host the URL parser refuses (a port out of range) is no clinic's address.
      const self = account && originOf(`${info.proto(req)}://${host}`);
      if (!account || !self) {
        if (!(await unauthenticatedBudget(req, res))) return;
        return refuse(res, 'not_found', 'No clinic at this address');
      }
      const urls = oauthUrls(self);
      // Stateless: no SSE stream to GET, no session to DELETE.
      if (req.method !== 'POST')
        return refuse(
          res,
          'method_not_allowed',
          `${(req.method ?? '').slice(0, 20)} is not valid for the MCP server: send JSON-RPC messages with POST`,
          { Allow: ALLOW },
        );

      const token = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(req.headers.authorization ?? '')?.[1];
      // Browsers send Origin. Without a bearer token, only the clinic's own pages may call (DNS
      // rebinding, cross-site requests); the whole origin must match (scheme, host and port). With one,
      // any origin may: the token is the authority (a rebinding or cross-site page has none for this
      // clinic), and it is checked below like any other. Clients that are not browsers send no Origin.
      const origin = req.headers.origin;
      if (origin !== undefined && originOf(origin) !== self && !token) {
        return refuse(
          res,
          'permission_denied',
          `Origin not allowed: ${origin.slice(0, 200)}. Requests from other origins must carry an OAuth access token (Authorization: Bearer)`,
        );
      }
      if (!token) {
        if (!(await unauthenticatedBudget(req, res))) return;
        return refuse(
          res,
          'unauthenticated',
          'Send an OAuth access token for this MCP server: Authorization: Bearer <token> (API keys are not accepted here)',
          { 'WWW-Authenticate': challenge(urls) },
        );
      }
      const found = await traced(
        'auth oauth_token',
        () => lookupAccessToken(db, account.id, token),
        (f) => ({ 'clinic.auth.outcome': f.connection ? 'accepted' : 'refused' }),
      );
      const conn = found.connection;
      if (!conn || canonicalResource(conn.resource) !== canonicalResource(urls.resource)) {
        if (!(await unauthenticatedBudget(req, res))) return;
        // Deactivation revoked the grant; while the member stays inactive, say so (after reactivation the token is simply dead).
        if (found.deactivatedUserId !== null && !(await activeMember(db.db, account.id, found.deactivatedUserId)))
          return inactive(res, urls);
        return refuse(
          res,
          'unauthenticated',
          'The access token is invalid, expired or revoked, or was issued for another resource',
          { 'WWW-Authenticate': challenge(urls, 'invalid_token') },
        );
      }
      if (!SCOPES.every((s) => conn.scope.includes(s))) {
        return refuse(res, 'insufficient_scope', `The token lacks the scope ${SCOPES.join(' ')}`, {
          'WWW-Authenticate': `${challenge(urls, 'insufficient_scope')}`,
        });
      }
      const member = await activeMember(db.db, account.id, conn.userId);
      if (!member) {
        if (!(await unauthenticatedBudget(req, res))) return;
        return inactive(res, urls);
      }
      if (!mayConnect(member))
        return refuse(
          res,
          'connector_not_permitted',
          'The team member who connected this app no longer has the permission "Connect AI apps"',
        );

      const rate = await limiter.take(`mcp:${account.id}`, env.RATE_LIMIT_MCP_PER_MINUTE);
      res.setHeader('X-RateLimit-Limit', String(rate.limit));
      res.setHeader('X-RateLimit-Remaining', String(rate.remaining));
      if (!rate.allowed)
        return refuse(
          res,
          'rate_limited',
          `The MCP budget of ${rate.limit} requests per minute is spent; retry after ${rate.retryAfter} s`,
          { 'Retry-After': String(rate.retryAfter) },
        );

      const now = Date.now();
      if (now - (touched.get(conn.grantId) ?? 0) > TOUCH_EVERY_MS) {
        touched.set(conn.grantId, now);
        touchGrant(db, account.id, conn.grantId, now).catch((err) =>
          logger.warn({ err }, 'connector last-used update failed'),
        );
      }
      const connector: Connector = {
        db,
        account,
        member,
        baseUrl: `${urls.issuer}/v3/api`,
        grantId: conn.grantId,
        clientId: conn.clientId,
      };
      const auth: AuthInfo = {
        token,
        clientId: conn.clientId,
        scopes: conn.scope,
        expiresAt: Math.floor(conn.expiresAt / 1000),
        resource: new URL(urls.resource),
        extra: { connector },
      };
      await node(Object.assign(req, { auth }), res);
    } catch (err) {
      const { error, internal } = toApiError(err);
      if (internal) logger.error({ err }, 'mcp request failed');
      if (!res.headersSent) refuse(res, error.code, error.message);
      else res.destroy();
    }
  }

  return { handle, close: () => mcp.close() };
}
