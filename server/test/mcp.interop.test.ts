/**
 * OAuth and MCP clients as they are found in the wild (issue 23 §5): an authorization request without
 * redirect_uri (the client registered one) or without resource (MCP revisions before 2025-06-18), a
 * browser-based MCP client on another origin (CORS), requests still in flight when the client
 * refreshes its tokens, and the MCP endpoint's refusals in the API's error shape.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { and, eq } from 'drizzle-orm';
import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, test } from 'vitest';
import { oauthGrants, oauthTokens } from '../../db/schema';
import { hashSecret } from '../auth/keys';
import { MCP_PATH } from '../oauth/urls';
import { expectError, request, useClinic } from './helpers';
import { hostFetch } from './support/host-fetch';
import { addMember, portalClient, portalData, type PortalClient } from './support/portal';

const t = useClinic({ seed: true });
const REDIRECT = 'http://127.0.0.1:8765/callback';
const FOREIGN = 'https://assistant.example';

let fetchVia: typeof fetch;
let origin: string;
let mcpUrl: string;
let as: oauth.AuthorizationServer;
let portal: PortalClient;
const opts = () => ({ [oauth.customFetch]: fetchVia, [oauth.allowInsecureRequests]: true });

beforeAll(async () => {
  fetchVia = hostFetch(t.server);
  origin = `http://${t.clinic.host}`;
  mcpUrl = `${origin}${MCP_PATH}`;
  const issuer = new URL(origin);
  as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...opts() }),
  );
  const admin = await addMember(t.server, t.clinic, 'admin');
  portal = portalClient(t.server, t.clinic);
  expect((await portal.signIn(admin.email, admin.password)).status).toBe(200);
});

async function register(): Promise<oauth.Client> {
  const registered = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', client_name: 'Interop' },
      opts(),
    ),
  );
  return { client_id: registered.client_id, token_endpoint_auth_method: 'none' };
}

/**
 * An authorization request with the given parameters left out, approved on the consent screen: the
 * code and its verifier. The authorization endpoint must send the browser to the consent page.
 */
async function authorizeWithout(client: oauth.Client, omitted: ('redirect_uri' | 'resource')[]) {
  const verifier = oauth.generateRandomCodeVerifier();
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    scope: 'mcp:read',
    resource: mcpUrl,
    state: 'st',
  });
  for (const name of omitted) query.delete(name);
  const toConsent = await fetchVia(`${as.authorization_endpoint}?${query}`, { redirect: 'manual' });
  expect(toConsent.status, await toConsent.clone().text()).toBe(302);
  expect(new URL(toConsent.headers.get('location')!, origin).pathname).toBe('/developers/connect');
  const approved = await portal.mutate('connectors.approve', { query: query.toString() });
  expect(approved.status, approved.text).toBe(200);
  const callback = new URL(portalData(approved).redirect);
  expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
  return { code: callback.searchParams.get('code')!, verifier, callback };
}

/** The token endpoint with exactly these form fields. */
const tokenRequest = (fields: Record<string, string>) =>
  request(t.server, 'POST', '/v3/oauth2/token', {
    host: t.clinic.host,
    key: null,
    raw: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

/** A new client's tokens, through the usual flow. */
async function connect(): Promise<{ access_token: string; refresh_token: string; client_id: string }> {
  const client = await register();
  const { code, verifier } = await authorizeWithout(client, []);
  const res = await tokenRequest({
    grant_type: 'authorization_code',
    client_id: client.client_id,
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
  });
  expect(res.status, res.text).toBe(200);
  return { ...res.body, client_id: client.client_id };
}

/** A tools/list call, with extra headers (an Origin). */
const mcpCall = (token: string | null, headers: Record<string, string> = {}) =>
  fetchVia(mcpUrl, {
    method: 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });

describe('authorization requests of older or simpler clients', () => {
  test('redirect_uri left out at authorize (one registered): the code is exchanged without it, or with the registered one; another is invalid_grant', async () => {
    const client = await register();
    const bare = await authorizeWithout(client, ['redirect_uri']);
    const exchanged = await tokenRequest({
      grant_type: 'authorization_code',
      client_id: client.client_id,
      code: bare.code,
      code_verifier: bare.verifier,
    });
    expect(exchanged.status, exchanged.text).toBe(200);
    expect((await mcpCall(exchanged.body.access_token)).status).toBe(200);

    // oauth4webapi always sends redirect_uri: the registered one is accepted.
    const named = await authorizeWithout(client, ['redirect_uri']);
    const params = oauth.validateAuthResponse(as, client, named.callback, 'st');
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, named.verifier, opts()),
    );
    expect((await mcpCall(tokens.access_token)).status).toBe(200);

    const other = await authorizeWithout(client, ['redirect_uri']);
    const wrong = await tokenRequest({
      grant_type: 'authorization_code',
      client_id: client.client_id,
      code: other.code,
      code_verifier: other.verifier,
      redirect_uri: 'http://127.0.0.1:8765/elsewhere',
    });
    expect([wrong.status, wrong.body.error]).toEqual([400, 'invalid_grant']);
  });

  test('redirect_uri named at authorize must come again at the token endpoint (RFC 6749 §4.1.3)', async () => {
    const client = await register();
    const { code, verifier } = await authorizeWithout(client, []);
    const res = await tokenRequest({
      grant_type: 'authorization_code',
      client_id: client.client_id,
      code,
      code_verifier: verifier,
    });
    expect([res.status, res.body.error]).toEqual([400, 'invalid_grant']);
  });

  test("resource left out (MCP revisions before 2025-06-18): the token is for this clinic's MCP server, at authorize and at the token endpoint", async () => {
    const client = await register();
    const { code, verifier } = await authorizeWithout(client, ['resource']);
    const res = await tokenRequest({
      grant_type: 'authorization_code',
      client_id: client.client_id,
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
    });
    expect(res.status, res.text).toBe(200);
    const grants = await t.server.app.db.db
      .select({ resource: oauthGrants.resource })
      .from(oauthGrants)
      .where(and(eq(oauthGrants.account_id, t.clinic.account.id), eq(oauthGrants.client_id, client.client_id)));
    expect(grants).toEqual([{ resource: mcpUrl }]);
    expect((await mcpCall(res.body.access_token)).status).toBe(200);
  });
});

describe('browser-based MCP clients on another origin', () => {
  let token: string;
  beforeAll(async () => {
    token = (await connect()).access_token;
  });

  test('the preflight is answered: POST with the headers asked for, any origin', async () => {
    const res = await request(t.server, 'OPTIONS', MCP_PATH, {
      host: t.clinic.host,
      key: null,
      headers: {
        origin: FOREIGN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version, mcp-method',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toMatch(/\bPOST\b/);
    expect(res.headers['access-control-allow-headers']?.toLowerCase().split(/,\s*/)).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'mcp-protocol-version', 'mcp-method']),
    );
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  test('an MCP SDK client whose requests carry a foreign Origin lists and calls tools; answers are readable cross-origin', async () => {
    const seen: Response[] = [];
    const browser: typeof fetch = async (input, init) => {
      const req = new Request(input, init);
      req.headers.set('origin', FOREIGN);
      const res = await fetchVia(req);
      seen.push(res);
      return res;
    };
    const mcp = new Client({ name: 'browser', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(mcpUrl), {
        fetch: browser,
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    expect((await mcp.listTools()).tools.length).toBeGreaterThan(5);
    const res = await mcp.callTool({ name: 'list_entity_types', arguments: {} });
    expect(res.isError).toBeFalsy();
    expect(seen.length).toBeGreaterThan(0);
    for (const r of seen) expect(r.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('a refused token from another origin: 401 with the challenge, readable (WWW-Authenticate exposed)', async () => {
    const res = await mcpCall('clinic_oat_not-a-token', { origin: FOREIGN });
    expect([res.status, (await res.json()).code]).toEqual([401, 'unauthenticated']);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('www-authenticate')).toMatch(/resource_metadata="/);
    expect(res.headers.get('access-control-expose-headers')).toMatch(/WWW-Authenticate/);
  });

  test('without a bearer token a foreign Origin is still refused: 403 permission_denied in the API error shape', async () => {
    const res = await request(t.server, 'POST', MCP_PATH, {
      host: t.clinic.host,
      key: null,
      raw: '{}',
      headers: { origin: FOREIGN, 'content-type': 'application/json' },
    });
    expectError(res, 403, 'permission_denied');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    // The clinic's own pages may call without one (and get the 401 challenge).
    expect((await mcpCall(null, { origin })).status).toBe(401);
  });
});

describe('refresh with requests in flight', () => {
  test('the previous access token lives to its own expiry; a replayed refresh token revokes the grant and every token', async () => {
    const first = await connect();
    const client = { client_id: first.client_id };
    const accessRow = async (token: string) =>
      (
        await t.server.app.db.db
          .select()
          .from(oauthTokens)
          .where(eq(oauthTokens.token_hash, hashSecret(token)))
      )[0];
    const expiresAt = (await accessRow(first.access_token)).expires_at;

    const second = await tokenRequest({
      grant_type: 'refresh_token',
      client_id: client.client_id,
      refresh_token: first.refresh_token,
    });
    expect(second.status, second.text).toBe(200);
    expect((await mcpCall(first.access_token)).status).toBe(200);
    expect((await mcpCall(second.body.access_token)).status).toBe(200);
    // Untouched by the refresh: its expiry is still the one it was issued with, an hour at most.
    expect((await accessRow(first.access_token)).expires_at).toBe(expiresAt);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(3_600_000);
    // Once that expiry passes, it is refused.
    await t.server.app.db.transaction((tx) =>
      tx
        .update(oauthTokens)
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where(eq(oauthTokens.token_hash, hashSecret(first.access_token))),
    );
    expect((await mcpCall(first.access_token)).status).toBe(401);

    const third = await tokenRequest({
      grant_type: 'refresh_token',
      client_id: client.client_id,
      refresh_token: second.body.refresh_token,
    });
    expect((await mcpCall(second.body.access_token)).status).toBe(200);
    // A replay of a used refresh token: the whole grant ends at once.
    const replay = await tokenRequest({
      grant_type: 'refresh_token',
      client_id: client.client_id,
      refresh_token: second.body.refresh_token,
    });
    expect([replay.status, replay.body.error]).toEqual([400, 'invalid_grant']);
    for (const access of [second.body.access_token, third.body.access_token])
      expect((await mcpCall(access)).status).toBe(401);
    expect(await accessRow(second.body.access_token)).toBeUndefined();
  });
});

describe('MCP refusals in the API error shape', () => {
  let token: string;
  beforeAll(async () => {
    token = (await connect()).access_token;
  });

  test.each(['GET', 'PUT', 'DELETE', 'PATCH'])(
    '%s, with a token or without: 405 method_not_allowed with Allow, not a JSON-RPC body',
    async (method) => {
      for (const key of [token, null]) {
        const res = await request(t.server, method, MCP_PATH, {
          host: t.clinic.host,
          key,
          headers: { accept: 'application/json, text/event-stream' },
        });
        expectError(res, 405, 'method_not_allowed');
        expect(res.headers.allow).toBe('POST, OPTIONS');
      }
    },
  );

  test('HEAD: 405 with Allow', async () => {
    const res = await request(t.server, 'HEAD', MCP_PATH, { host: t.clinic.host, key: token });
    expect([res.status, res.headers.allow]).toEqual([405, 'POST, OPTIONS']);
  });
});
