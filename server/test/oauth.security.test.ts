/**
 * Findings of a security review of the OAuth authorization server and the MCP endpoint, each with the
 * test that fails without its fix: no open redirect through error responses, no 500 (nor an error-level
 * log) an attacker can trigger, unauthenticated budgets on the token, revocation and MCP endpoints and a
 * discovery budget, the whole Origin compared, one answer for unusable client metadata documents, the
 * sweep of clients, grants, codes and tokens, and deactivation revoking a member's connectors.
 *
 * The server limits unauthenticated calls to 2 a minute per address and trusts X-Forwarded-For: every
 * scenario comes from an address of its own (the test database, and its buckets, are shared with the
 * other test files).
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { auditLog, oauthClients, oauthCodes, oauthGrants, oauthTokens, users } from '../../db/schema';
import { setActive } from '../domain/team';
import { loadEnv } from '../env';
import { createMcpEndpoint } from '../mcp/endpoint';
import { METADATA_UNUSABLE } from '../oauth/clients';
import { createOAuthServer } from '../oauth/handler';
import { sweepOAuth } from '../oauth/sweep';
import { MCP_PATH } from '../oauth/urls';
import { RateLimiter } from '../rest/ratelimit';
import { TenantResolver } from '../tenancy';
import { newClinic, request, startServer, useClinic, type Clinic, type Res, type TestServer } from './helpers';
import { ownDatabaseUrl } from './support/own-database';
import { addMember, portalClient, portalData, type PortalClient } from './support/portal';

const t = useClinic({ env: { RATE_LIMIT_UNAUTH_PER_MINUTE: '2', TRUST_PROXY: '1' } });
const REDIRECT = 'http://127.0.0.1:8765/callback';
const system = { actor_type: 'system' as const, actor_id: null, actor_name: 'test' };

const byte = () => 1 + Math.floor(Math.random() * 254);
/** An address of its own for a scenario (X-Forwarded-For). */
const newIp = () => `10.${byte()}.${byte()}.${byte()}`;

interface CallOptions {
  ip: string;
  host?: string;
  raw?: string;
  headers?: Record<string, string>;
  server?: TestServer;
}

const call = (method: string, path: string, o: CallOptions): Promise<Res> =>
  request(o.server ?? t.server, method, path, {
    host: o.host ?? t.clinic.host,
    key: null,
    raw: o.raw,
    headers: { 'x-forwarded-for': o.ip, ...o.headers },
  });

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const tokenCall = (o: CallOptions & { fields: Record<string, string> }) =>
  call('POST', '/v3/oauth2/token', {
    ...o,
    raw: new URLSearchParams(o.fields).toString(),
    headers: { ...FORM, ...o.headers },
  });
const revokeCall = (o: CallOptions & { fields: Record<string, string> }) =>
  call('POST', '/v3/oauth2/revoke', {
    ...o,
    raw: new URLSearchParams(o.fields).toString(),
    headers: { ...FORM, ...o.headers },
  });

/** A tools/list call to the MCP server. */
const mcpCall = (o: CallOptions & { token?: string }) =>
  call('POST', MCP_PATH, {
    ...o,
    raw: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
      ...o.headers,
    },
  });

async function registerClient(ip: string, redirectUris = [REDIRECT], clinic: Clinic = t.clinic): Promise<string> {
  const res = await call('POST', '/v3/oauth2/register', {
    ip,
    host: clinic.host,
    raw: JSON.stringify({
      redirect_uris: redirectUris,
      token_endpoint_auth_method: 'none',
      client_name: 'Security Test',
    }),
    headers: { 'content-type': 'application/json' },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.client_id;
}

const mcpUrl = (clinic: Clinic = t.clinic) => `http://${clinic.host}${MCP_PATH}`;

function authorizeQuery(
  clientId: string,
  challenge: string,
  extra: Record<string, string | null> = {},
  clinic: Clinic = t.clinic,
): URLSearchParams {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st',
    scope: 'mcp:read',
    resource: mcpUrl(clinic),
  });
  for (const [k, v] of Object.entries(extra)) {
    if (v === null) q.delete(k);
    else q.set(k, v);
  }
  return q;
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** Authorization request, consent by `portal`'s member, code exchange: the token response. */
async function connect(
  portal: PortalClient,
  clientId: string,
  ip: string,
  opts: { redirect?: string; clinic?: Clinic } = {},
) {
  const clinic = opts.clinic ?? t.clinic;
  const redirect = opts.redirect ?? REDIRECT;
  const { verifier, challenge } = pkce();
  const query = authorizeQuery(clientId, challenge, { redirect_uri: redirect }, clinic);
  const toConsent = await call('GET', `/v3/oauth2/authorize?${query}`, { ip, host: clinic.host });
  expect(toConsent.status, toConsent.text).toBe(302);
  expect(toConsent.headers.location).toMatch(/^\/developers\/connect\?/);
  const approved = await portal.mutate('connectors.approve', { query: query.toString() });
  expect(approved.status, approved.text).toBe(200);
  const code = new URL(portalData(approved).redirect).searchParams.get('code')!;
  const tokens = await tokenCall({
    ip,
    host: clinic.host,
    fields: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect,
      client_id: clientId,
      code_verifier: verifier,
      resource: mcpUrl(clinic),
    },
  });
  expect(tokens.status, tokens.text).toBe(200);
  return tokens.body as { access_token: string; refresh_token: string };
}

/** Counted windows are per minute: a test that needs a few hits in one window starts well inside one. */
async function insideOneMinute() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 10_000) await new Promise((r) => setTimeout(r, left + 50));
}

/** A server for client metadata documents: path → [status, body]; counts the requests. */
async function documentServer(routes: (base: string) => Record<string, [number, string]>) {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const [status, body] = routes(base)[req.url ?? '/'] ?? [404, 'no such document'];
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, hits: () => hits, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let adminPortal: PortalClient;
let admin: Awaited<ReturnType<typeof addMember>>;

beforeAll(async () => {
  admin = await addMember(t.server, t.clinic, 'admin');
  adminPortal = portalClient(t.server, t.clinic);
  expect((await adminPortal.signIn(admin.email, admin.password)).status).toBe(200);
});

describe('1. OAuth error responses are no open redirect', () => {
  test('a client nobody in this clinic has approved gets its errors shown (400 JSON), never redirected; once approved, they are redirected', async () => {
    const ip = newIp();
    const phish = 'https://phish.example/login';
    const clientId = await registerClient(ip, [phish]);
    const bad = new URLSearchParams({ client_id: clientId, redirect_uri: phish, response_type: 'x', state: 'st' });
    const shown = await call('GET', `/v3/oauth2/authorize?${bad}`, { ip });
    expect(shown.status, shown.text).toBe(400);
    expect(shown.headers.location).toBeUndefined();
    expect(shown.body.error).toBe('invalid_request');
    expect(shown.body.error_description).toMatch(
      /unsupported_response_type: response_type must be code.*not been approved/,
    );
    // The consent page shows it too rather than handing out the redirect.
    const described = await adminPortal.query('connectors.describe', { query: bad.toString() });
    expect(described.status).toBe(422);
    expect(described.body.error.data.code).toBe('invalid_input');

    // A member approves the app: from then on its redirect is trusted, and errors go back to it (RFC 6749 §4.1.2.1).
    await connect(adminPortal, clientId, ip, { redirect: phish });
    const redirected = await call('GET', `/v3/oauth2/authorize?${bad}`, { ip });
    expect(redirected.status).toBe(302);
    const location = new URL(redirected.headers.location!);
    expect(`${location.origin}${location.pathname}`).toBe(phish);
    expect([location.searchParams.get('error'), location.searchParams.get('state')]).toEqual([
      'unsupported_response_type',
      'st',
    ]);
  });

  test('an approval in another clinic does not count: a metadata-document client approved there is no redirector here', async () => {
    const docs = await documentServer((base) => ({
      '/client.json': [
        200,
        JSON.stringify({ client_id: `${base}/client.json`, client_name: 'Doc Assistant', redirect_uris: [REDIRECT] }),
      ],
    }));
    try {
      const clientId = `${docs.base}/client.json`;
      const other = await newClinic(t.server);
      const owner = await addMember(t.server, other, 'admin');
      const otherPortal = portalClient(t.server, other);
      expect((await otherPortal.signIn(owner.email, owner.password)).status).toBe(200);
      await connect(otherPortal, clientId, newIp(), { clinic: other });

      const bad = (clinic: Clinic) => authorizeQuery(clientId, pkce().challenge, { response_type: 'x' }, clinic);
      const there = await call('GET', `/v3/oauth2/authorize?${bad(other)}`, { ip: newIp(), host: other.host });
      expect(there.status).toBe(302);
      expect(new URL(there.headers.location!).searchParams.get('error')).toBe('unsupported_response_type');
      const here = await call('GET', `/v3/oauth2/authorize?${bad(t.clinic)}`, { ip: newIp() });
      expect([here.status, here.headers.location, here.body.error]).toEqual([400, undefined, 'invalid_request']);
    } finally {
      await docs.close();
    }
  });
});

/**
 * The OAuth server and the MCP endpoint built as the app builds them, over the suite's database, with a
 * logger whose lines the tests read: a 500 an attacker triggers would log its stack at error level.
 */
describe('2. bad input is a 4xx, never a 500 or an error-level log', () => {
  const lines: { level: number; msg: string; [k: string]: unknown }[] = [];
  let observed: TestServer;

  beforeAll(async () => {
    const env = loadEnv({
      ...process.env,
      LOG_LEVEL: 'debug',
      TRUST_PROXY: '1',
      RATE_LIMIT_UNAUTH_PER_MINUTE: '2',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    });
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const db = t.server.app.db;
    const tenants = new TenantResolver(db, env.SERVICE_DOMAIN, env.SERVICE_REGIONS);
    const limiter = new RateLimiter(db);
    const oauthServer = createOAuthServer({ db, env, logger, tenants, limiter });
    const mcp = createMcpEndpoint({ db, env, logger, tenants, limiter });
    const server = http.createServer(
      (req, res) => void ((req.url ?? '').startsWith(MCP_PATH) ? mcp.handle(req, res) : oauthServer.handle(req, res)),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    observed = { port: (server.address() as AddressInfo).port } as TestServer;
    return async () => {
      await new Promise<void>((r) => server.close(() => r()));
      await mcp.close();
      await limiter.close();
    };
  });

  const errorLines = () => lines.filter((l) => l.level >= 50);

  test('token endpoint, Basic credentials with a bad percent escape ("client:%"): 401 invalid_client', async () => {
    for (const credentials of ['client:%', '%E0%A4%A:secret', 'client:%zz']) {
      const res = await tokenCall({
        server: observed,
        ip: newIp(),
        fields: { grant_type: 'authorization_code', code: 'x' },
        headers: { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` },
      });
      expect([res.status, res.body.error], credentials).toEqual([401, 'invalid_client']);
      expect(res.headers['www-authenticate']).toMatch(/^Basic/);
    }
    const revoke = await revokeCall({
      server: observed,
      ip: newIp(),
      fields: { token: 'x' },
      headers: { authorization: `Basic ${Buffer.from('client:%').toString('base64')}` },
    });
    expect([revoke.status, revoke.body.error]).toEqual([401, 'invalid_client']);
    expect(errorLines()).toEqual([]);
  });

  test('authorize with redirect_uri omitted and an error: 400 invalid_request, never a redirect (even for an approved client), and the consent page refuses it too', async () => {
    const clientId = await registerClient(newIp());
    // An approval by someone in the clinic: the client's redirect is trusted.
    await t.server.app.db.transaction((tx) =>
      tx.insert(oauthGrants).values({
        account_id: t.clinic.account.id,
        client_id: clientId,
        user_id: admin.id,
        scope: 'mcp:read',
        resource: mcpUrl(),
        created_at: new Date().toISOString(),
      }),
    );
    const bads: Record<string, string>[] = [
      { response_type: 'x' },
      { code_challenge_method: 'plain' },
      { resource: 'https://elsewhere.example/mcp' },
      { scope: 'everything' },
    ];
    for (const bad of bads) {
      const query = authorizeQuery(clientId, pkce().challenge, { redirect_uri: null, ...bad });
      const res = await call('GET', `/v3/oauth2/authorize?${query}`, {
        server: observed,
        ip: newIp(),
        host: t.clinic.host,
      });
      expect([res.status, res.headers.location, res.body.error], JSON.stringify(bad)).toEqual([
        400,
        undefined,
        'invalid_request',
      ]);
      expect(res.body.error_description).toMatch(/names no redirect_uri/);
      const described = await adminPortal.query('connectors.describe', { query: query.toString() });
      expect(described.status, described.text).toBe(422);
    }
    // With the redirect named, the same client's errors are redirected.
    const named = await call(
      'GET',
      `/v3/oauth2/authorize?${authorizeQuery(clientId, pkce().challenge, { response_type: 'x' })}`,
      { server: observed, ip: newIp(), host: t.clinic.host },
    );
    expect(named.status).toBe(302);
    expect(named.headers.location).toMatch(/^http:\/\/127\.0\.0\.1:8765\/callback\?error=unsupported_response_type/);
    expect(errorLines()).toEqual([]);
  });

  test('a Host whose port the URL parser refuses: the MCP endpoint answers 404, not 500', async () => {
    const res = await mcpCall({ server: observed, ip: newIp(), host: `${t.clinic.host}:99999` });
    expect([res.status, res.body.code]).toEqual([404, 'not_found']);
    const authorize = await call('GET', `/v3/oauth2/authorize?response_type=code`, {
      server: observed,
      ip: newIp(),
      host: `${t.clinic.host}:99999`,
    });
    expect(authorize.status).toBeLessThan(500);
    expect(errorLines()).toEqual([]);
  });

  test('5. an unusable client metadata document gets one answer whatever went wrong; the detail is logged at warn, never its body', async () => {
    const secret = 'internal-secret-payload';
    const docs = await documentServer((base) => ({
      '/missing.json': [404, secret],
      '/broken.json': [500, secret],
      '/text.json': [200, `${secret} is not json`],
      '/array.json': [200, JSON.stringify([secret])],
      '/big.json': [
        200,
        JSON.stringify({ client_id: `${base}/big.json`, redirect_uris: [REDIRECT], pad: secret.repeat(400) }),
      ],
      '/other.json': [
        200,
        JSON.stringify({ client_id: 'https://someone.else/client.json', redirect_uris: [REDIRECT], note: secret }),
      ],
      '/self.json': [200, JSON.stringify({ client_id: `${base}/self.json`, redirect_uris: ['http://example.com/cb'] })],
    }));
    try {
      const answers = new Set<string>();
      for (const path of [
        '/missing.json',
        '/broken.json',
        '/text.json',
        '/array.json',
        '/big.json',
        '/other.json',
        '/nowhere.json',
      ]) {
        const query = authorizeQuery(`${docs.base}${path}`, pkce().challenge);
        const res = await call('GET', `/v3/oauth2/authorize?${query}`, {
          server: observed,
          ip: newIp(),
          host: t.clinic.host,
        });
        expect(res.status, path).toBe(400);
        expect(res.text).not.toContain(secret);
        answers.add(res.body.error_description);
        const token = await tokenCall({
          server: observed,
          ip: newIp(),
          fields: { grant_type: 'authorization_code', client_id: `${docs.base}${path}`, code: 'x' },
        });
        expect([token.status, token.body.error_description]).toEqual([401, 'Unknown client']);
      }
      expect([...answers]).toEqual([METADATA_UNUSABLE]);
      // A document that names itself was meant for this server: its author gets the specific reason.
      const self = await call(
        'GET',
        `/v3/oauth2/authorize?${authorizeQuery(`${docs.base}/self.json`, pkce().challenge)}`,
        { server: observed, ip: newIp(), host: t.clinic.host },
      );
      expect([self.status, self.body.error_description]).toEqual([
        400,
        'http is allowed for loopback redirects only (localhost, 127.0.0.1, [::1])',
      ]);

      const refused = lines.filter((l) => l.msg === 'client metadata document refused');
      expect(refused.length).toBeGreaterThanOrEqual(7);
      expect(refused.every((l) => l.level === 40)).toBe(true);
      expect(refused.find((l) => (l.client_id as string).endsWith('/missing.json'))).toMatchObject({ status: 404 });
      expect(refused.find((l) => (l.client_id as string).endsWith('/text.json'))).toMatchObject({ reason: 'not JSON' });
      expect(JSON.stringify(lines)).not.toContain(secret);
      expect(errorLines()).toEqual([]);
    } finally {
      await docs.close();
    }
  });
});

describe('3. unauthenticated budgets', () => {
  test('MCP without a token, with an invalid token: 2 a minute per address, then 429 with Retry-After', async () => {
    await insideOneMinute();
    const ip = newIp();
    const none = await mcpCall({ ip });
    expect([none.status, none.body.code]).toEqual([401, 'unauthenticated']);
    expect(none.headers['x-ratelimit-limit']).toBe('2');
    const invalid = await mcpCall({ ip, token: 'clinic_oat_nonsense' });
    expect([invalid.status, invalid.body.code]).toEqual([401, 'unauthenticated']);
    const over = await mcpCall({ ip, token: 'clinic_oat_nonsense' });
    expect([over.status, over.body.code]).toEqual([429, 'rate_limited']);
    expect(Object.keys(over.body).sort()).toEqual(['code', 'message']);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await mcpCall({ ip: newIp() })).status).toBe(401);
  });

  test('token and revocation endpoints: refused calls spend the budget; then 429, answered before the client is looked up (no metadata fetch)', async () => {
    const docs = await documentServer(() => ({}));
    try {
      await insideOneMinute();
      const ip = newIp();
      const fetched = {
        grant_type: 'authorization_code',
        client_id: `${docs.base}/nobody.json`,
        code: 'x',
        code_verifier: 'v'.repeat(43),
      };
      const first = await tokenCall({ ip, fields: fetched });
      expect([first.status, first.body.error]).toEqual([401, 'invalid_client']);
      const second = await revokeCall({ ip, fields: { client_id: 'nobody', token: 'x' } });
      expect([second.status, second.body.error]).toEqual([401, 'invalid_client']);
      const third = await tokenCall({ ip, fields: fetched });
      expect([third.status, third.body.error]).toEqual([429, 'rate_limited']);
      expect(Object.keys(third.body).sort()).toEqual(['error', 'error_description']);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      const hits = docs.hits();
      const fourth = await tokenCall({ ip, fields: fetched });
      expect(fourth.status).toBe(429);
      expect(docs.hits()).toBe(hits);
      expect((await revokeCall({ ip, fields: { client_id: 'nobody', token: 'x' } })).status).toBe(429);
      // Another address is not affected.
      expect(
        (await tokenCall({ ip: newIp(), fields: { grant_type: 'authorization_code', client_id: 'nobody' } })).status,
      ).toBe(401);
    } finally {
      await docs.close();
    }
  });

  test('a normal client is not starved: discovery, registration, code exchange, refreshes, revocation and MCP calls, all from one address within a minute', async () => {
    await insideOneMinute();
    const ip = newIp();
    expect((await mcpCall({ ip })).status).toBe(401);
    expect((await call('GET', '/.well-known/oauth-protected-resource/v3/api/mcp', { ip })).status).toBe(200);
    expect((await call('GET', '/.well-known/oauth-authorization-server', { ip })).status).toBe(200);
    const clientId = await registerClient(ip);
    let tokens = await connect(adminPortal, clientId, ip);
    for (let i = 0; i < 3; i++) {
      const refreshed = await tokenCall({
        ip,
        fields: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId },
      });
      expect(refreshed.status, refreshed.text).toBe(200);
      tokens = refreshed.body;
      expect((await mcpCall({ ip, token: tokens.access_token })).status).toBe(200);
    }
    expect((await revokeCall({ ip, fields: { token: tokens.access_token, client_id: clientId } })).status).toBe(200);
    // One refusal of the budget's two: the revoked token.
    expect((await mcpCall({ ip, token: tokens.access_token })).status).toBe(401);
  });

  test('the discovery documents have a budget of their own: 60 a minute per address, apart from the unauthenticated one', async () => {
    await insideOneMinute();
    const ip = newIp();
    const paths = [
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource',
      '/.well-known/openid-configuration',
    ];
    for (let i = 0; i < 60; i++) {
      const res = await call('GET', paths[i % paths.length], { ip });
      expect(res.status, `request ${i + 1}`).toBe(200);
    }
    const over = await call('GET', paths[0], { ip });
    expect([over.status, over.body.error]).toEqual([429, 'rate_limited']);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await call('GET', paths[0], { ip: newIp() })).status).toBe(200);
    // The unauthenticated budget of the address is untouched.
    expect((await mcpCall({ ip })).status).toBe(401);
    expect((await mcpCall({ ip })).status).toBe(401);
  });
});

describe('authorization requests that make the server fetch', () => {
  test('a URL-shaped client_id (a metadata document the server fetches): 10 authorization requests a minute per address, then 429 without a fetch', async () => {
    await insideOneMinute();
    // Sound documents: the requests are good (302 to consent), so only the fetch budget counts them
    // (refused requests also spend the address's unauthenticated budget: tested in hardening.round3).
    const docs = await documentServer((base) =>
      Object.fromEntries(
        Array.from({ length: 12 }, (_, i) => [
          `/client-${i}.json`,
          [
            200,
            JSON.stringify({
              client_id: `${base}/client-${i}.json`,
              client_name: `Doc ${i}`,
              redirect_uris: [REDIRECT],
            }),
          ],
        ]),
      ),
    );
    try {
      const ip = newIp();
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await call(
          'GET',
          `/v3/oauth2/authorize?${authorizeQuery(`${docs.base}/client-${i}.json`, pkce().challenge)}`,
          { ip },
        );
        statuses.push(res.status);
      }
      expect(
        statuses.slice(0, 10).every((s) => s === 302),
        String(statuses),
      ).toBe(true);
      expect(statuses[10]).toBe(429);
      expect(docs.hits()).toBe(10);
      // Another address has its own budget; a registered (non-URL) client_id is not counted.
      expect(
        (
          await call('GET', `/v3/oauth2/authorize?${authorizeQuery(`${docs.base}/client-11.json`, pkce().challenge)}`, {
            ip: newIp(),
          })
        ).status,
      ).toBe(302);
      const registered = await registerClient(newIp());
      expect(
        (await call('GET', `/v3/oauth2/authorize?${authorizeQuery(registered, pkce().challenge)}`, { ip })).status,
      ).toBe(302);
    } finally {
      await docs.close();
    }
  });
});

describe('4. the MCP Origin check compares the whole origin', () => {
  let token: string;
  beforeAll(async () => {
    token = (await connect(adminPortal, await registerClient(newIp()), newIp())).access_token;
  });

  test('without a bearer token, the same host name on another port or scheme is 403; the exact origin and no Origin are allowed', async () => {
    const ip = newIp();
    for (const origin of [
      `http://${t.clinic.host}:8443`,
      `https://${t.clinic.host}`,
      `http://${t.clinic.host}.evil.example`,
      'null',
    ]) {
      // An address of its own: a refusal may take from the unauthenticated budget (2 a minute).
      const res = await mcpCall({ ip: newIp(), headers: { origin } });
      expect([res.status, res.body.code], origin).toEqual([403, 'permission_denied']);
      // With the clinic's token, the origin is no longer what decides (CORS for browser clients).
      expect((await mcpCall({ ip, token, headers: { origin } })).status, origin).toBe(200);
    }
    expect((await mcpCall({ ip, token, headers: { origin: `http://${t.clinic.host}` } })).status).toBe(200);
    expect((await mcpCall({ ip, token, headers: { origin: `HTTP://${t.clinic.host.toUpperCase()}:80` } })).status).toBe(
      200,
    );
    expect((await mcpCall({ ip, token })).status).toBe(200);
  });
});

describe('6. sweepOAuth', () => {
  test('removes unused registered clients after 30 days, expired metadata-document clients without grants, expired tokens, old grants without tokens and old codes; keeps the rest', async () => {
    // A database of its own: a sweep reaches every clinic's rows, and the one a month ahead would end the
    // live tokens of every other file running on the suite's shared database.
    const own = await startServer({ DATABASE_URL: await ownDatabaseUrl() });
    onTestFinished(() => own.close());
    const clinic = await newClinic(own);
    const db = own.app.db;
    const now = Date.now();
    const ago = (days: number) => new Date(now - days * 86_400_000).toISOString();
    const later = (days: number) => new Date(now + days * 86_400_000).toISOString();
    const account_id = clinic.account.id;
    const client = (
      client_id: string,
      created: string,
      kind: 'registered' | 'metadata_document' = 'registered',
      expires: string | null = null,
    ) => ({
      account_id,
      client_id,
      name: client_id,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none' as const,
      kind,
      expires_at: expires,
      created_at: created,
      secret_hash: null,
    });
    const grant = (client_id: string, created: string, revoked: string | null = null) => ({
      account_id,
      client_id,
      user_id: 1,
      scope: 'mcp:read',
      resource: mcpUrl(clinic),
      created_at: created,
      revoked_at: revoked,
      revoked_reason: revoked && 'test',
    });
    const ids = await db.transaction(async (tx) => {
      await tx
        .insert(oauthClients)
        .values([
          client('old-unused', ago(31)),
          client('new-unused', ago(29)),
          client('old-used', ago(90)),
          client('old-revoked', ago(90)),
          client('https://docs.example/expired.json', ago(1), 'metadata_document', ago(0.01)),
          client('https://docs.example/cached.json', ago(1), 'metadata_document', later(0.01)),
        ]);
      const [live, revokedLongAgo, revokedRecently, lapsed, fresh] = await tx
        .insert(oauthGrants)
        .values([
          grant('old-used', ago(60)),
          grant('old-revoked', ago(80), ago(31)),
          grant('old-revoked', ago(40), ago(5)),
          grant('old-used', ago(70)),
          grant('old-used', ago(0)),
        ])
        .returning({ id: oauthGrants.id });
      const tok = (grant_id: number, kind: 'access' | 'refresh', expires: string) => ({
        account_id,
        grant_id,
        kind,
        token_hash: randomBytes(16).toString('hex'),
        expires_at: expires,
        created_at: ago(1),
      });
      const tokens = await tx
        .insert(oauthTokens)
        .values([
          tok(live.id, 'refresh', later(40)),
          tok(live.id, 'access', ago(0.01)),
          tok(lapsed.id, 'refresh', ago(1)),
        ])
        .returning({ id: oauthTokens.id });
      const code = (grant_id: number, expires: string) => ({
        account_id,
        grant_id,
        code_hash: randomBytes(16).toString('hex'),
        redirect_uri: REDIRECT,
        code_challenge: 'c',
        expires_at: expires,
      });
      const codes = await tx
        .insert(oauthCodes)
        .values([code(lapsed.id, ago(69)), code(fresh.id, later(0.005))])
        .returning({ id: oauthCodes.id });
      return { live, revokedLongAgo, revokedRecently, lapsed, fresh, tokens, codes };
    });

    await sweepOAuth(db, now);

    const clientsLeft = (
      await db.db
        .select({ id: oauthClients.client_id })
        .from(oauthClients)
        .where(eq(oauthClients.account_id, account_id))
    )
      .map((r) => r.id)
      .sort();
    expect(clientsLeft).toEqual(['https://docs.example/cached.json', 'new-unused', 'old-revoked', 'old-used']);
    const grantsLeft = (
      await db.db.select({ id: oauthGrants.id }).from(oauthGrants).where(eq(oauthGrants.account_id, account_id))
    )
      .map((r) => r.id)
      .sort((a, b) => a - b);
    expect(grantsLeft).toEqual([ids.live.id, ids.revokedRecently.id, ids.fresh.id].sort((a, b) => a - b));
    const tokensLeft = (
      await db.db.select({ id: oauthTokens.id }).from(oauthTokens).where(eq(oauthTokens.account_id, account_id))
    ).map((r) => r.id);
    expect(tokensLeft).toEqual([ids.tokens[0].id]);
    const codesLeft = (
      await db.db.select({ id: oauthCodes.id }).from(oauthCodes).where(eq(oauthCodes.account_id, account_id))
    ).map((r) => r.id);
    expect(codesLeft).toEqual([ids.codes[1].id]);

    // A month on, with nothing used: the rest goes too, but the live grant (its refresh token still valid) and its client.
    await sweepOAuth(db, now + 31 * 86_400_000);
    const after = (
      await db.db
        .select({ id: oauthClients.client_id })
        .from(oauthClients)
        .where(eq(oauthClients.account_id, account_id))
    )
      .map((r) => r.id)
      .sort();
    expect(after).toEqual(['old-used']);
  });
});

describe('7. deactivating a member revokes their AI connectors; reactivation does not bring them back', () => {
  /** A new admin, signed in, who has connected a newly registered app. */
  async function connectedAdmin() {
    const ip = newIp();
    const member = await addMember(t.server, t.clinic, 'admin');
    const portal = portalClient(t.server, t.clinic);
    expect((await portal.signIn(member.email, member.password)).status).toBe(200);
    const clientId = await registerClient(ip);
    return { ip, member, portal, clientId, tokens: await connect(portal, clientId, ip) };
  }

  test('connect, deactivate (401 user_inactive, refresh refused), reactivate: the old access and refresh tokens stay refused, the connector is gone', async () => {
    const { ip, member, portal, clientId, tokens } = await connectedAdmin();
    expect((await mcpCall({ ip, token: tokens.access_token })).status).toBe(200);
    const connectors = async () =>
      (portalData(await adminPortal.query('connectors.list')).data as { user_id: number }[]).filter(
        (c) => c.user_id === member.id,
      );
    expect(await connectors()).toHaveLength(1);

    await setActive(t.server.app.db, t.clinic.account, system, member.id, false);
    const inactive = await mcpCall({ ip, token: tokens.access_token });
    expect([inactive.status, inactive.body.code]).toEqual([401, 'user_inactive']);
    expect(await connectors()).toHaveLength(0);
    const revokedEntries = await t.server.app.db.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.account_id, t.clinic.account.id),
          eq(auditLog.entity, 'connectors'),
          eq(auditLog.action, 'revoked'),
        ),
      );
    expect(revokedEntries.some((e) => JSON.stringify(e.changes).includes('member deactivated'))).toBe(true);

    await setActive(t.server.app.db, t.clinic.account, system, member.id, true);
    const after = await mcpCall({ ip: newIp(), token: tokens.access_token });
    expect([after.status, after.body.code]).toEqual([401, 'unauthenticated']);
    const refresh = await tokenCall({
      ip: newIp(),
      fields: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId },
    });
    expect([refresh.status, refresh.body.error]).toEqual([400, 'invalid_grant']);
    expect(await connectors()).toHaveLength(0);
    // The member approves again to reconnect.
    expect((await portal.signIn(member.email, member.password)).status).toBe(200);
    const again = await connect(portal, clientId, newIp());
    expect((await mcpCall({ ip: newIp(), token: again.access_token })).status).toBe(200);
  });

  test('a member deactivated before this rule (grants still live) gets none back on reactivation', async () => {
    const { ip, member, clientId, tokens } = await connectedAdmin();
    // Deactivated the old way: the flag alone.
    await t.server.app.db.transaction((tx) => tx.update(users).set({ active: false }).where(eq(users.id, member.id)));
    expect((await mcpCall({ ip, token: tokens.access_token })).body.code).toBe('user_inactive');
    await setActive(t.server.app.db, t.clinic.account, system, member.id, true);
    expect((await mcpCall({ ip: newIp(), token: tokens.access_token })).status).toBe(401);
    const refresh = await tokenCall({
      ip: newIp(),
      fields: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId },
    });
    expect(refresh.body.error).toBe('invalid_grant');
  });
});
