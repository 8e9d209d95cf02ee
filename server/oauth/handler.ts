/**
 * The OAuth 2.1 authorization server of each clinic host, and the discovery documents: RFC 8414
 * metadata at /.well-known/oauth-authorization-server (and openid-configuration, and the path form for
 * the MCP resource), RFC 9728 protected-resource metadata, RFC 7591 registration, the authorization
 * endpoint (it hands a checked request to the portal's consent screen), token and revocation
 * endpoints. CORS is open on every document and endpoint but authorize: browser clients call them.
 *
 * Budgets per client address: the discovery documents have one of their own (DISCOVERY_PER_MINUTE);
 * a request for an unknown clinic, and a refused call of the token or revocation endpoint, take from the
 * unauthenticated budget (RATE_LIMIT_UNAUTH_PER_MINUTE, the bucket the REST gateway uses); registration
 * has its own limits. Every answer carries X-Request-Id, and X-RateLimit-Limit/-Remaining of the
 * budget it took from (of two, the one with less room).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { DbHandle } from '../../db/client';
import type { Account } from '../context';
import type { Env } from '../env';
import { ApiError } from '../errors';
import { observing, traced, UNMATCHED, watch } from '../observability/hooks';
import { requestInfo } from '../request-info';
import { readBody } from '../rest/body';
import { addRateHeaders } from '../rest/outcome';
import { RateLimiter, type RateDecision } from '../rest/ratelimit';
import type { TenantResolver } from '../tenancy';
import { authenticateClient, registerClient, type ClientLog } from './clients';
import { OAuthFailure } from './errors';
import {
  checkAuthorizationRequest,
  exchangeCode,
  RedirectedError,
  redirectWith,
  refreshTokens,
  revokeToken,
  UntrustedRequest,
} from './grants';
import {
  authorizationServerMetadata,
  MCP_PATH,
  OAUTH_PREFIX,
  oauthUrls,
  protectedResourceMetadata,
  type OAuthUrls,
} from './urls';

/** Where the consent screen lives (a portal page: the member signs in there). */
export const CONSENT_PAGE = '/developers/connect';
const REGISTER_PER_IP_PER_MINUTE = 10;
const REGISTER_PER_ACCOUNT_PER_MINUTE = 60;
/** Authorization requests naming a metadata-document client (a URL the server may fetch). */
const METADATA_AUTHORIZE_PER_IP_PER_MINUTE = 10;
/** The discovery documents, per client address: public and cacheable, so looser than unauthenticated calls (as the OpenAPI document's). */
export const DISCOVERY_PER_MINUTE = 60;
/** How many addresses the token endpoint remembers as over budget (an entry lasts to the end of its minute). */
const SPENT_MAX = 10_000;

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, MCP-Protocol-Version',
  'Access-Control-Expose-Headers':
    'WWW-Authenticate, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-Request-Id',
  'Access-Control-Max-Age': '86400',
};

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The discovery documents by path. */
const DOCUMENTS: Record<string, (urls: OAuthUrls) => unknown> = {
  '/.well-known/oauth-protected-resource': protectedResourceMetadata,
  [`/.well-known/oauth-protected-resource${MCP_PATH}`]: protectedResourceMetadata,
  '/.well-known/oauth-authorization-server': authorizationServerMetadata,
  [`/.well-known/oauth-authorization-server${MCP_PATH}`]: authorizationServerMetadata,
  '/.well-known/openid-configuration': authorizationServerMetadata,
};
/** The endpoints route() answers besides the documents. */
const ENDPOINTS = new Set(['register', 'token', 'revoke', 'authorize'].map((e) => `${OAUTH_PREFIX}/${e}`));
/** A path as the route label of metrics and traces: the server's own paths, any other as one label. */
const routeOf = (path: string) => (Object.hasOwn(DOCUMENTS, path) || ENDPOINTS.has(path) ? path : UNMATCHED);

/** Whether a path is the OAuth server's (the app's router sends these here). */
export const isOAuthPath = (path: string) => path.startsWith('/.well-known/') || path.startsWith(`${OAUTH_PREFIX}/`);

export interface OAuthServer {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export function createOAuthServer(opts: {
  db: DbHandle;
  env: Env;
  logger: Logger;
  tenants: TenantResolver;
  limiter: RateLimiter;
}): OAuthServer {
  const { db, env, logger, tenants, limiter } = opts;
  const info = requestInfo(env.TRUST_PROXY);
  const allowPrivate = env.WEBHOOKS_ALLOW_PRIVATE;

  const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
    status,
    body,
    headers,
  });
  const failure = (f: OAuthFailure): Answer => json(f.status, f.body(), f.headers);
  // Why a client metadata document was refused: for the operator, never in the answer (an oracle).
  const clientLog: ClientLog = (detail, message) => logger.warn(detail, message);

  const overBudget = (limit: number, retryAfter: number) =>
    new OAuthFailure('rate_limited', `Rate limit of ${limit} per minute exceeded; retry after ${retryAfter} s`, 429, {
      'Retry-After': String(retryAfter),
    });

  /** The budget decisions of requests in progress, for their answer's headers. */
  const budgets = new WeakMap<IncomingMessage, RateDecision>();
  /** Notes a decision on the request; of several budgets, the answer shows the one with less room. */
  function note(req: IncomingMessage, rate: RateDecision) {
    const before = budgets.get(req);
    if (!before || rate.remaining < before.remaining) budgets.set(req, rate);
  }

  async function takeBudget(req: IncomingMessage, bucket: string, limit: number) {
    const rate = await limiter.take(bucket, limit);
    note(req, rate);
    if (!rate.allowed) throw overBudget(rate.limit, rate.retryAfter);
  }

  /** Addresses whose unauthenticated budget a refused token or revocation call found spent: until when (ms). */
  const spent = new Map<string, number>();

  /**
   * The token and revocation endpoints are called without a user, and a client may be public (no
   * secret): a refused call (failed client authentication, an invalid grant, a malformed request) takes
   * from the caller's unauthenticated budget, and once that is spent every call from the address is
   * 429 until the minute ends, answered before the body is read or a client looked up (and its metadata
   * document fetched). A successful call costs nothing, so a normal client's code exchange and
   * refreshes are never starved by the 2 a minute. The memory of spent addresses is this process's; the
   * budget itself is shared, so another process learns it at its first refused call.
   */
  async function unauthenticatedCall(req: IncomingMessage, work: () => Promise<Answer>): Promise<Answer> {
    const ip = info.clientKey(req);
    const until = spent.get(ip);
    if (until !== undefined) {
      const left = until - Date.now();
      if (left > 0) {
        const retryAfter = Math.max(1, Math.ceil(left / 1000));
        note(req, { allowed: false, limit: env.RATE_LIMIT_UNAUTH_PER_MINUTE, remaining: 0, retryAfter });
        throw overBudget(env.RATE_LIMIT_UNAUTH_PER_MINUTE, retryAfter);
      }
      spent.delete(ip);
    }
    try {
      return await work();
    } catch (err) {
      const refused = err instanceof OAuthFailure || (err instanceof ApiError && err.status < 500);
      if (!refused) throw err;
      const rate = await limiter.take(`unauth:${ip}`, env.RATE_LIMIT_UNAUTH_PER_MINUTE);
      note(req, rate);
      if (rate.allowed) throw err;
      if (spent.size >= SPENT_MAX) for (const [k, v] of spent) if (v <= Date.now()) spent.delete(k);
      if (spent.size < SPENT_MAX) spent.set(ip, Date.now() + rate.retryAfter * 1000);
      throw overBudget(rate.limit, rate.retryAfter);
    }
  }

  async function form(req: IncomingMessage): Promise<URLSearchParams> {
    const type = req.headers['content-type'] ?? '';
    if (!/^application\/x-www-form-urlencoded\b/i.test(type))
      throw new OAuthFailure('invalid_request', 'Send the body as application/x-www-form-urlencoded');
    return new URLSearchParams(await readBody(req, env.MAX_BODY_BYTES));
  }

  async function route(
    req: IncomingMessage,
    account: Account,
    urls: OAuthUrls,
    path: string,
    query: URLSearchParams,
  ): Promise<Answer> {
    const method = req.method ?? 'GET';
    if (Object.hasOwn(DOCUMENTS, path)) {
      if (method !== 'GET' && method !== 'HEAD')
        return json(405, { error: 'invalid_request', error_description: 'GET only' }, { Allow: 'GET, HEAD, OPTIONS' });
      return json(200, DOCUMENTS[path](urls), { 'Cache-Control': 'public, max-age=3600' });
    }
    const post = (work: () => Promise<Answer>) =>
      method === 'POST'
        ? work()
        : Promise.resolve(
            json(405, { error: 'invalid_request', error_description: 'POST only' }, { Allow: 'POST, OPTIONS' }),
          );
    switch (path) {
      case `${OAUTH_PREFIX}/register`:
        return post(async () => {
          await takeBudget(req, `oauth_register:${account.id}:${info.clientKey(req)}`, REGISTER_PER_IP_PER_MINUTE);
          await takeBudget(req, `oauth_register:${account.id}`, REGISTER_PER_ACCOUNT_PER_MINUTE);
          const text = await readBody(req, env.MAX_BODY_BYTES);
          if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
            throw new OAuthFailure('invalid_client_metadata', 'Send the client metadata as application/json');
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            throw new OAuthFailure('invalid_client_metadata', 'The body is not JSON');
          }
          return json(201, await registerClient(db, account, body));
        });
      case `${OAUTH_PREFIX}/token`:
        return post(() =>
          unauthenticatedCall(req, async () => {
            const params = await form(req);
            const client = await traced('auth oauth_client', () =>
              authenticateClient(db, account, params, req.headers.authorization, allowPrivate, clientLog),
            );
            const grant = params.get('grant_type');
            if (grant === 'authorization_code') return json(200, await exchangeCode(db, account, client, params, urls));
            if (grant === 'refresh_token') return json(200, await refreshTokens(db, account, client, params));
            throw new OAuthFailure('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
          }),
        );
      case `${OAUTH_PREFIX}/revoke`:
        return post(() =>
          unauthenticatedCall(req, async () => {
            const params = await form(req);
            const client = await traced('auth oauth_client', () =>
              authenticateClient(db, account, params, req.headers.authorization, allowPrivate, clientLog),
            );
            const presented = params.get('token');
            if (!presented) throw new OAuthFailure('invalid_request', 'token is required');
            await revokeToken(db, account, client, presented);
            return json(200, {});
          }),
        );
      case `${OAUTH_PREFIX}/authorize`:
        if (method !== 'GET')
          return json(405, { error: 'invalid_request', error_description: 'GET only' }, { Allow: 'GET' });
        // A URL-shaped client_id may make the server fetch it (a client metadata document): bounded per address.
        if (/^https?:\/\//i.test(query.get('client_id') ?? ''))
          await takeBudget(
            req,
            `oauth_metadata:${account.id}:${info.clientKey(req)}`,
            METADATA_AUTHORIZE_PER_IP_PER_MINUTE,
          );
        // Errors go back to the client only at a redirect the request named, of a client someone here has
        // approved (checkAuthorizationRequest); any other is this 400, never a redirect, and counts against
        // the address's unauthenticated budget like every refused OAuth call (a browser's good request costs nothing).
        return unauthenticatedCall(req, () => authorize(account, urls, query));
      default:
        return json(404, { error: 'not_found', error_description: 'No such endpoint' });
    }
  }

  /** GET /authorize: to the consent page, or back to the client with an error, or a refusal thrown (400). */
  async function authorize(account: Account, urls: OAuthUrls, query: URLSearchParams): Promise<Answer> {
    try {
      await checkAuthorizationRequest(db, account, urls, query, allowPrivate, clientLog);
      return { status: 302, headers: { Location: `${CONSENT_PAGE}?${query.toString()}` } };
    } catch (err) {
      let refusal = err;
      if (err instanceof RedirectedError) {
        try {
          return {
            status: 302,
            headers: {
              Location: redirectWith(
                err.redirectUri,
                { error: err.error, error_description: err.description, state: query.get('state') },
                urls,
              ),
            },
          };
        } catch (unusable) {
          refusal = unusable;
        }
      }
      if (refusal instanceof UntrustedRequest) throw new OAuthFailure('invalid_request', refusal.message, 400);
      throw refusal;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://x');
    } catch {
      url = new URL('http://x/');
    }
    const path = url.pathname.replace(/\/$/, '') || '/';
    if (observing.any) watch(req, res, routeOf(path), 'oauth');
    let answer: Answer;
    try {
      if (req.method === 'OPTIONS') answer = { status: 204, headers: {} };
      else {
        // Before the clinic is looked up: any host, known or not, spends the same budget.
        if (path.startsWith('/.well-known/'))
          await takeBudget(req, `discovery:${info.clientKey(req)}`, DISCOVERY_PER_MINUTE);
        const account = await tenants.resolve(info.host(req));
        if (!account) {
          if (!path.startsWith('/.well-known/'))
            await takeBudget(req, `unauth:${info.clientKey(req)}`, env.RATE_LIMIT_UNAUTH_PER_MINUTE);
          answer = json(404, { error: 'not_found', error_description: 'No clinic at this address' });
        } else
          answer = await route(
            req,
            account,
            oauthUrls(`${info.proto(req)}://${info.host(req)}`),
            path,
            url.searchParams,
          );
      }
    } catch (err) {
      if (err instanceof OAuthFailure) answer = failure(err);
      else if (err instanceof ApiError && err.code === 'wrong_region') answer = json(err.status, err.toBody());
      else if (err instanceof ApiError && err.status < 500)
        answer = json(err.status, { error: 'invalid_request', error_description: err.message });
      else {
        logger.error({ err }, 'oauth request failed');
        answer = json(500, { error: 'server_error', error_description: 'Internal error' });
      }
    }
    const body = answer.body === undefined ? undefined : JSON.stringify(answer.body);
    const cors = path === `${OAUTH_PREFIX}/authorize` ? {} : CORS;
    const rate = budgets.get(req);
    res.writeHead(answer.status, {
      'X-Request-Id': randomUUID(),
      ...(rate ? addRateHeaders({}, rate) : {}),
      'Cache-Control': 'no-store',
      ...cors,
      ...(body !== undefined
        ? { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)) }
        : {}),
      ...answer.headers,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return { handle };
}
