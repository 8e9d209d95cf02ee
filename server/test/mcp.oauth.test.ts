/**
 * AI connectors end to end, as an assistant would connect: discovery from the MCP server's 401,
 * dynamic registration, PKCE, consent by a signed-in member, code exchange, refresh rotation and
 * revocation, all driven by oauth4webapi; then the official MCP SDK clients (v2, and v1 speaking the
 * 2025-11-25 revision) with the token: tools listed and called, structuredContent checked against each
 * outputSchema, the member's role and record scope applied, deactivation, lost permission and the budget.
 */
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { appointments, oauthGrants, oauthTokens, users } from '../../db/schema';
import { setActive, updateRole } from '../domain/team';
import { DEFAULT_ROLES } from '../auth/permissions';
import { TOOLS } from '../mcp/tools';
import { request, useClinic } from './helpers';
import { hostFetch } from './support/host-fetch';
import { addMember, portalClient, portalData } from './support/portal';

// WEBHOOKS_ALLOW_PRIVATE lets the SSRF guard fetch a client metadata document from a loopback server.
// The MCP budget test holds the server's clock inside one minute's window, however long its calls take.
let heldAt: number | undefined;
const t = useClinic({ seed: true, env: { WEBHOOKS_ALLOW_PRIVATE: '1' }, now: () => heldAt ?? Date.now() });
const system = { actor_type: 'system' as const, actor_id: null, actor_name: 'test' };
const REDIRECT = 'http://127.0.0.1:8765/callback';

let fetchVia: typeof fetch;
let origin: string;
let mcpUrl: string;
const opts = () => ({ [oauth.customFetch]: fetchVia, [oauth.allowInsecureRequests]: true });

/** Discovery as a client does it: the 401's resource_metadata → the resource's metadata → the AS metadata. */
async function discover() {
  const unauth = await fetchVia(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{}',
  });
  expect(unauth.status).toBe(401);
  const challenge = unauth.headers.get('www-authenticate') ?? '';
  const prmUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
  expect(challenge).toMatch(/scope="mcp:read"/);
  const prm = await (await fetchVia(prmUrl!)).json();
  expect(prm.resource).toBe(mcpUrl);
  const issuer = new URL(prm.authorization_servers[0]);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...opts() }),
  );
  return as;
}

/** Registration, PKCE, consent by `portal`'s member, and the code exchange. */
async function register(as: oauth.AuthorizationServer): Promise<oauth.Client> {
  const registered = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', client_name: 'Test Assistant' },
      opts(),
    ),
  );
  return { client_id: registered.client_id, token_endpoint_auth_method: 'none' };
}

/**
 * PKCE, consent by `portal`'s member, and the code exchange; registering a new client unless one is
 * given (registration is limited to 10 a minute per account and address).
 */
async function connect(
  portal: ReturnType<typeof portalClient>,
  as: oauth.AuthorizationServer,
  registered?: oauth.Client,
) {
  const client = registered ?? (await register(as));
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const authorize = new URL(as.authorization_endpoint!);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    scope: 'mcp:read',
    resource: mcpUrl,
  })) {
    authorize.searchParams.set(k, v);
  }
  const toConsent = await fetchVia(authorize, { redirect: 'manual' });
  expect(toConsent.status).toBe(302);
  const consent = new URL(toConsent.headers.get('location')!, origin);
  expect(consent.pathname).toBe('/developers/connect');
  const query = consent.search.slice(1);
  const described = portalData(await portal.query('connectors.describe', { query }));
  expect(described).toMatchObject({
    valid: true,
    client_name: 'Test Assistant',
    redirect_host: '127.0.0.1:8765',
    can_connect: true,
  });
  const approved = await portal.mutate('connectors.approve', { query });
  expect(approved.status, approved.text).toBe(200);
  const callback = new URL(portalData(approved).redirect);
  expect(callback.searchParams.get('iss')).toBe(as.issuer);
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, {
      additionalParameters: { resource: mcpUrl },
      ...opts(),
    }),
  );
  return { client, tokens, verifier, params };
}

async function mcpClient(token: string) {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), {
      fetch: fetchVia,
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

let as: oauth.AuthorizationServer;
/** One registered client for the tests that are not about registration. */
let shared: oauth.Client;
let admin: Awaited<ReturnType<typeof addMember>>;
let adminPortal: ReturnType<typeof portalClient>;

beforeAll(async () => {
  fetchVia = hostFetch(t.server);
  origin = `http://${t.clinic.host}`;
  mcpUrl = `${origin}/v3/api/mcp`;
  admin = await addMember(t.server, t.clinic, 'admin');
  adminPortal = portalClient(t.server, t.clinic);
  expect((await adminPortal.signIn(admin.email, admin.password)).status).toBe(200);
  as = await discover();
  shared = await register(as);
});

describe('OAuth', () => {
  test('metadata: RFC 8414 fields, CORS with WWW-Authenticate exposed', async () => {
    expect(as).toMatchObject({
      issuer: origin,
      code_challenge_methods_supported: ['S256'],
      registration_endpoint: `${origin}/v3/oauth2/register`,
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
    });
    const res = await fetchVia(`${origin}/.well-known/oauth-protected-resource/v3/api/mcp`, {
      headers: { origin: 'https://claude.example' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toMatch(/WWW-Authenticate/i);
    const root = await (await fetchVia(`${origin}/.well-known/oauth-protected-resource`)).json();
    expect(root.resource).toBe(mcpUrl);
  });

  test('the whole flow: registration, consent, code (single use), refresh rotation with reuse detection, revocation', async () => {
    const first = await connect(adminPortal, as);
    expect(first.tokens.token_type).toBe('bearer');
    expect((await mcpCall(first.tokens.access_token)).status).toBe(200);
    // A second exchange of the code fails and revokes what the first issued.
    const again = await oauth.authorizationCodeGrantRequest(
      as,
      first.client,
      oauth.None(),
      first.params,
      REDIRECT,
      first.verifier,
      opts(),
    );
    expect(await oauthError(oauth.processAuthorizationCodeResponse(as, first.client, again))).toBe('invalid_grant');
    expect((await mcpCall(first.tokens.access_token)).status).toBe(401);

    const { client, tokens } = await connect(adminPortal, as, shared);
    const refresh = (token: string) =>
      oauth
        .refreshTokenGrantRequest(as, client, oauth.None(), token, opts())
        .then((r) => oauth.processRefreshTokenResponse(as, client, r));
    const rotated = await refresh(tokens.refresh_token!);
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    // The previous access token lives on to its own expiry: requests in flight with it still succeed.
    expect((await mcpCall(tokens.access_token)).status).toBe(200);
    expect((await mcpCall(rotated.access_token)).status).toBe(200);
    // The used refresh token presented again: the grant is revoked, every token with it.
    expect(await oauthError(refresh(tokens.refresh_token!))).toBe('invalid_grant');
    expect((await mcpCall(rotated.access_token)).status).toBe(401);
    expect((await mcpCall(tokens.access_token)).status).toBe(401);
    expect(await oauthError(refresh(rotated.refresh_token!))).toBe('invalid_grant');

    // RFC 7009 revocation of an access token.
    const third = await connect(adminPortal, as, shared);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, third.client, oauth.None(), third.tokens.access_token, opts()),
    );
    expect((await mcpCall(third.tokens.access_token)).status).toBe(401);
  });

  test('refusals: PKCE plain, a foreign resource, an unregistered redirect, a member without Connect AI apps', async () => {
    const registered = await register(as);
    const base = {
      response_type: 'code',
      client_id: registered.client_id,
      redirect_uri: REDIRECT,
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
      state: 's1',
      resource: mcpUrl,
    };
    const authorize = (params: Record<string, string>) =>
      fetchVia(`${as.authorization_endpoint}?${new URLSearchParams(params)}`, { redirect: 'manual' });
    const errorOf = async (res: Response) => new URL(res.headers.get('location')!).searchParams.get('error');
    // Until someone in the clinic approves the app, its errors are shown (400), never redirected.
    const unapproved = await authorize({ ...base, code_challenge_method: 'plain' });
    expect([unapproved.status, unapproved.headers.get('location'), (await unapproved.json()).error]).toEqual([
      400,
      null,
      'invalid_request',
    ]);
    await connect(adminPortal, as, registered);
    expect(await errorOf(await authorize({ ...base, code_challenge_method: 'plain' }))).toBe('invalid_request');
    expect(await errorOf(await authorize({ ...base, resource: 'https://elsewhere.example/mcp' }))).toBe(
      'invalid_target',
    );
    expect((await authorize({ ...base, redirect_uri: 'https://evil.example/cb' })).status).toBe(400);
    // Loopback redirects may use any port; the resource compares canonically (case, one trailing slash).
    const loopback = await authorize({
      ...base,
      redirect_uri: 'http://127.0.0.1:40123/callback',
      resource: `${mcpUrl.toUpperCase().replace('/V3/API/MCP', '/v3/api/mcp')}/`,
    });
    expect(new URL(loopback.headers.get('location')!, origin).pathname).toBe('/developers/connect');

    const receptionist = await addMember(t.server, t.clinic, 'receptionist');
    const portal = portalClient(t.server, t.clinic);
    await portal.signIn(receptionist.email, receptionist.password);
    const query = new URLSearchParams(base).toString();
    // What an app would see as this receptionist, in her terms.
    expect(portalData(await portal.query('connectors.describe', { query }))).toMatchObject({
      valid: true,
      can_connect: false,
      known: true,
      sees: expect.stringMatching(
        /^As .+, your role reads patients, appointments and billing: every record of the clinic in those areas\.$/,
      ),
    });
    const refused = await portal.mutate('connectors.approve', { query });
    expect(refused.status).toBe(403);
    expect(refused.body.error.data.code).toBe('connector_not_permitted');
    const denied = new URL(portalData(await portal.mutate('connectors.deny', { query })).redirect);
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('s1');
  });
});

describe('Client ID Metadata Documents', () => {
  test('a URL-shaped client_id is fetched and checked: its own client_id and redirect_uris; a document naming another id is refused', async () => {
    const docs = http.createServer((req, res) => {
      const self = `http://127.0.0.1:${(docs.address() as AddressInfo).port}${req.url}`;
      const doc =
        req.url === '/liar.json'
          ? { client_id: 'https://someone.else/client.json', redirect_uris: [REDIRECT] }
          : { client_id: self, client_name: 'Doc Assistant', redirect_uris: [REDIRECT] };
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' })
        .end(JSON.stringify(doc));
    });
    await new Promise<void>((r) => docs.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
      const params = (clientId: string) =>
        new URLSearchParams({
          response_type: 'code',
          client_id: clientId,
          redirect_uri: REDIRECT,
          code_challenge: 'b'.repeat(43),
          code_challenge_method: 'S256',
          resource: mcpUrl,
          state: 'cimd',
        });
      const ok = await fetchVia(`${as.authorization_endpoint}?${params(`${base}/client.json`)}`, {
        redirect: 'manual',
      });
      expect(ok.status).toBe(302);
      const described = portalData(
        await adminPortal.query('connectors.describe', { query: params(`${base}/client.json`).toString() }),
      );
      expect(described).toMatchObject({ valid: true, client_name: 'Doc Assistant', client_id: `${base}/client.json` });
      expect(
        (await fetchVia(`${as.authorization_endpoint}?${params(`${base}/liar.json`)}`, { redirect: 'manual' })).status,
      ).toBe(400);
      const wrongRedirect = params(`${base}/client.json`);
      wrongRedirect.set('redirect_uri', 'https://evil.example/cb');
      expect((await fetchVia(`${as.authorization_endpoint}?${wrongRedirect}`, { redirect: 'manual' })).status).toBe(
        400,
      );
    } finally {
      await new Promise<void>((r) => docs.close(() => r()));
    }
  });
});

describe('OAuth endpoints answer bad input with OAuth errors, never a 500', () => {
  test.each([
    [
      'register: malformed JSON',
      '/v3/oauth2/register',
      'application/json',
      '{"redirect_uris": [',
      400,
      'invalid_client_metadata',
    ],
    [
      'register: a javascript: redirect',
      '/v3/oauth2/register',
      'application/json',
      JSON.stringify({ redirect_uris: ['javascript:alert(1)'] }),
      400,
      'invalid_redirect_uri',
    ],
    [
      'register: http to a public host',
      '/v3/oauth2/register',
      'application/json',
      JSON.stringify({ redirect_uris: ['http://example.com/cb'] }),
      400,
      'invalid_redirect_uri',
    ],
    [
      'register: prototype-named keys',
      '/v3/oauth2/register',
      'application/json',
      '{"__proto__": {"x": 1}, "redirect_uris": "nope"}',
      400,
      'invalid_redirect_uri',
    ],
    ['token: JSON instead of a form', '/v3/oauth2/token', 'application/json', '{}', 400, 'invalid_request'],
    [
      'token: unknown client',
      '/v3/oauth2/token',
      'application/x-www-form-urlencoded',
      'grant_type=authorization_code&client_id=nobody&code=x',
      401,
      'invalid_client',
    ],
    [
      'token: unsupported grant',
      '/v3/oauth2/token',
      'application/x-www-form-urlencoded',
      'grant_type=password&client_id=nobody',
      401,
      'invalid_client',
    ],
    [
      'revoke: no token',
      '/v3/oauth2/revoke',
      'application/x-www-form-urlencoded',
      'client_id=nobody',
      401,
      'invalid_client',
    ],
  ])('%s', async (_label, path, type, raw, status, error) => {
    const res = await request(t.server, 'POST', path, {
      host: t.clinic.host,
      key: null,
      raw,
      headers: { 'content-type': type },
    });
    expect(res.status, res.text).toBe(status);
    expect(res.body.error).toBe(error);
  });
  test('an oversized body is 413; an unknown well-known path is a JSON 404; an unknown clinic is 404', async () => {
    const big = await request(t.server, 'POST', '/v3/oauth2/register', {
      host: t.clinic.host,
      key: null,
      raw: 'x'.repeat(2_000_000),
      headers: { 'content-type': 'application/json' },
    });
    expect(big.status).toBe(413);
    const unknown = await request(t.server, 'GET', '/.well-known/nothing-here', { host: t.clinic.host, key: null });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'not_found']);
    const elsewhere = await request(t.server, 'GET', '/.well-known/oauth-authorization-server', {
      host: 'nobody.neptune.localhost',
      key: null,
    });
    expect(elsewhere.status).toBe(404);
  });
  test('registration is limited to 10 a minute per account and address: then 429 with Retry-After', async () => {
    let res;
    for (let i = 0; i < 25; i++) {
      res = await request(t.server, 'POST', '/v3/oauth2/register', {
        host: t.clinic.host,
        key: null,
        body: { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' },
      });
      if (res.status === 429) break;
      expect(res.status).toBe(201);
    }
    expect(res!.status).toBe(429);
    expect(res!.body.error).toBe('rate_limited');
    expect(Number(res!.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('the MCP server', () => {
  let token: string;
  beforeAll(async () => {
    token = (await connect(adminPortal, as, shared)).tokens.access_token;
  });

  test('lists the tools in a fixed order with annotations and output schemas, and every tool answers as its schema says', async () => {
    const client = await mcpClient(token);
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name)).toEqual(TOOLS.map((x) => x.name));
    expect(tools.map((x) => x.name)).toEqual([
      'list_entity_types',
      'query_entities',
      'get_entity',
      'write_entity',
      'check_availability',
      'find_patient',
      'patient_summary',
      'practitioner_schedule',
      'next_available_slot',
    ]);
    for (const x of tools) {
      expect(x.annotations?.readOnlyHint, x.name).toBe(x.name !== 'write_entity');
      expect(x.outputSchema, x.name).toBeDefined();
    }
    const appt = (await t.api.get('/appointments?page_size=1&sort=id')).body.data[0];
    const patient = (await t.api.get(`/patients/${appt.patient_id}`)).body.data;
    const calls: Record<string, Record<string, unknown>> = {
      list_entity_types: {},
      query_entities: { entity_type: 'patients', filters: { last_name: `eq:${patient.last_name}` }, page_size: 5 },
      get_entity: { entity_type: 'appointments', id: appt.id },
      check_availability: { location_id: appt.location_id, appointment_type_id: appt.appointment_type_id },
      find_patient: { name: `${patient.first_name} ${patient.last_name}` },
      patient_summary: { patient_id: patient.id },
      practitioner_schedule: { practitioner_id: appt.practitioner_id, date: appt.starts_at.slice(0, 10), days: 7 },
      next_available_slot: { location_id: appt.location_id, appointment_type_id: appt.appointment_type_id },
    };
    for (const x of TOOLS.filter((x) => x.name !== 'write_entity')) {
      const res = await client.callTool({ name: x.name, arguments: calls[x.name] });
      expect(res.isError, `${x.name}: ${JSON.stringify(res.content)}`).toBeFalsy();
      expect(x.output.safeParse(res.structuredContent).success, x.name).toBe(true);
      expect(JSON.parse((res.content as { text: string }[])[0].text)).toEqual(res.structuredContent);
    }
    const found = await client.callTool({ name: 'find_patient', arguments: calls.find_patient });
    expect((found.structuredContent as { data: { id: number }[] }).data.map((p) => p.id)).toContain(patient.id);
    const one = await client.callTool({ name: 'get_entity', arguments: calls.get_entity });
    expect(one.structuredContent).toEqual({ data: (await t.api.get(`/appointments/${appt.id}`)).body.data });
  });

  test('domain and input errors are tool results carrying the REST code; write_entity explains read-only; an unknown tool is a protocol error', async () => {
    const client = await mcpClient(token);
    const codeOf = async (name: string, args: Record<string, unknown>) => {
      const res = await client.callTool({ name, arguments: args });
      expect(res.isError).toBe(true);
      return JSON.parse((res.content as { text: string }[])[0].text).code;
    };
    expect(
      await codeOf('write_entity', { entity_type: 'patients', operation: 'create', attributes: { first_name: 'X' } }),
    ).toBe('unsupported_operation');
    expect(await codeOf('get_entity', { entity_type: 'patients', id: 999_999 })).toBe('not_found');
    expect(await codeOf('query_entities', { entity_type: 'patients', filters: { shoe_size: 'eq:9' } })).toBe(
      'validation_failed',
    );
    await expect(client.callTool({ name: 'launch_rockets', arguments: {} })).rejects.toThrow();
  });

  test('a 2025-11-25 era client (SDK v1) lists and calls tools', async () => {
    const client = new LegacyClient({ name: 'legacy', version: '1.0.0' });
    await client.connect(
      new LegacyTransport(new URL(mcpUrl), {
        fetch: fetchVia,
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    expect((await client.listTools()).tools.map((x) => x.name)).toContain('patient_summary');
    const res = await client.callTool({ name: 'list_entity_types', arguments: {} });
    expect(res.isError).toBeFalsy();
    expect((res.structuredContent as { entity_types: unknown[] }).entity_types.length).toBeGreaterThan(10);
  });

  test('a token without the MCP scope → 403 insufficient_scope with its challenge', async () => {
    const raw = `clinic_oat_${randomBytes(32).toString('base64url')}`;
    await t.server.app.db.transaction(async (tx) => {
      const [grant] = await tx
        .insert(oauthGrants)
        .values({
          account_id: t.clinic.account.id,
          client_id: shared.client_id,
          user_id: admin.id,
          scope: 'profile',
          resource: mcpUrl,
          created_at: new Date().toISOString(),
        })
        .returning({ id: oauthGrants.id });
      await tx.insert(oauthTokens).values({
        account_id: t.clinic.account.id,
        grant_id: grant.id,
        kind: 'access',
        token_hash: createHash('sha256').update(raw).digest('hex'),
        expires_at: new Date(Date.now() + 60_000).toISOString(),
        created_at: new Date().toISOString(),
      });
    });
    const res = await mcpCall(raw);
    expect([res.status, (await res.json()).code]).toEqual([403, 'insufficient_scope']);
    expect(res.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/);
  });

  test('a notification is accepted with 202 and no body', async () => {
    const res = await fetchVia(mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(res.status).toBe(202);
  });

  test('transport rules: API keys refused, a foreign Origin without a token 403, GET 405 in the API error shape', async () => {
    const withKey = await request(t.server, 'POST', '/v3/api/mcp', {
      host: t.clinic.host,
      key: t.clinic.key,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(withKey.status).toBe(401);
    expect(withKey.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect((await mcpCall(token)).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const foreign = await fetchVia(mcpUrl, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect([foreign.status, (await foreign.json()).code]).toEqual([403, 'permission_denied']);
    const get = await fetchVia(mcpUrl, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
    expect([get.status, (await get.json()).code, get.headers.get('allow')]).toEqual([
      405,
      'method_not_allowed',
      'POST, OPTIONS',
    ]);
  });
});

describe('as the member', () => {
  test("own_patients: patient reads and searches only return patients with an appointment with the member's practitioner", async () => {
    const [appt] = (await t.api.get('/appointments?page_size=1&sort=id')).body.data;
    await updateRole(t.server.app.db, t.clinic.account, system, 'practitioner', {
      permissions: [...DEFAULT_ROLES.practitioner.permissions, 'connectors.manage'],
      record_scope: 'own_patients',
    });
    const member = await addMember(t.server, t.clinic, 'practitioner');
    await t.server.app.db.transaction((tx) =>
      tx.update(users).set({ practitioner_id: appt.practitioner_id }).where(eq(users.id, member.id)),
    );
    const portal = portalClient(t.server, t.clinic);
    await portal.signIn(member.email, member.password);
    const client = await mcpClient((await connect(portal, as, shared)).tokens.access_token);
    const theirs = await t.server.app.db.db
      .select({ patient_id: appointments.patient_id })
      .from(appointments)
      .where(
        and(eq(appointments.account_id, t.clinic.account.id), eq(appointments.practitioner_id, appt.practitioner_id)),
      );
    const own = new Set(theirs.map((a) => a.patient_id));
    const listed = await client.callTool({
      name: 'query_entities',
      arguments: { entity_type: 'patients', page_size: 100 },
    });
    const ids = (listed.structuredContent as { data: { id: number }[] }).data.map((p) => p.id);
    expect(ids.length).toBe(Math.min(100, own.size));
    expect(ids.every((id) => own.has(id))).toBe(true);
    const stranger = (await t.api.get(`/patients?page_size=100`)).body.data.find((p: { id: number }) => !own.has(p.id));
    const denied = await client.callTool({ name: 'patient_summary', arguments: { patient_id: stranger.id } });
    expect(JSON.parse((denied.content as { text: string }[])[0].text).code).toBe('permission_denied');
    const found = await client.callTool({ name: 'find_patient', arguments: { name: stranger.last_name } });
    expect((found.structuredContent as { data: { id: number }[] }).data.map((p) => p.id)).not.toContain(stranger.id);
    // Records that cannot be narrowed to the member's patients are refused, not shown whole.
    const lines = await client.callTool({ name: 'query_entities', arguments: { entity_type: 'line_items' } });
    expect(JSON.parse((lines.content as { text: string }[])[0].text).code).toBe('permission_denied');
    // A read the role does not allow.
    await updateRole(t.server.app.db, t.clinic.account, system, 'practitioner', {
      permissions: ['appointments.read', 'connectors.manage'],
      record_scope: 'all',
    });
    const noPatients = await client.callTool({ name: 'find_patient', arguments: { name: stranger.last_name } });
    expect(JSON.parse((noPatients.content as { text: string }[])[0].text).code).toBe('permission_denied');
  });

  test('an own_calendar practitioner sees only their own diary', async () => {
    const [appt] = (await t.api.get('/appointments?page_size=1&sort=id')).body.data;
    await updateRole(t.server.app.db, t.clinic.account, system, 'practitioner', {
      permissions: [...DEFAULT_ROLES.practitioner.permissions, 'connectors.manage'],
      record_scope: 'own_calendar',
    });
    const member = await addMember(t.server, t.clinic, 'practitioner');
    await t.server.app.db.transaction((tx) =>
      tx.update(users).set({ practitioner_id: appt.practitioner_id }).where(eq(users.id, member.id)),
    );
    const portal = portalClient(t.server, t.clinic);
    await portal.signIn(member.email, member.password);
    const client = await mcpClient((await connect(portal, as, shared)).tokens.access_token);
    const listed = await client.callTool({
      name: 'query_entities',
      arguments: { entity_type: 'appointments', page_size: 100 },
    });
    const rows = (listed.structuredContent as { data: { practitioner_id: number }[] }).data;
    const theirs = await t.server.app.db.db
      .select()
      .from(appointments)
      .where(
        and(eq(appointments.account_id, t.clinic.account.id), eq(appointments.practitioner_id, appt.practitioner_id)),
      );
    expect(rows.length).toBe(Math.min(100, theirs.filter((a) => a.deleted_at === null).length));
    expect(new Set(rows.map((r) => r.practitioner_id))).toEqual(new Set([appt.practitioner_id]));
    const other = (await t.api.get(`/appointments?practitioner_id=ne:${appt.practitioner_id}&page_size=1`)).body
      .data[0];
    const res = await client.callTool({ name: 'get_entity', arguments: { entity_type: 'appointments', id: other.id } });
    expect(JSON.parse((res.content as { text: string }[])[0].text).code).toBe('permission_denied');
    const schedule = await client.callTool({
      name: 'practitioner_schedule',
      arguments: { practitioner_id: other.practitioner_id },
    });
    expect(JSON.parse((schedule.content as { text: string }[])[0].text).code).toBe('permission_denied');
  });

  test('a member who loses Connect AI apps → 403 connector_not_permitted; a deactivated member → 401 user_inactive', async () => {
    const member = await addMember(t.server, t.clinic, 'receptionist');
    await updateRole(t.server.app.db, t.clinic.account, system, 'receptionist', {
      permissions: [...DEFAULT_ROLES.receptionist.permissions, 'connectors.manage'],
      record_scope: 'all',
    });
    const portal = portalClient(t.server, t.clinic);
    await portal.signIn(member.email, member.password);
    const token = (await connect(portal, as, shared)).tokens.access_token;
    expect((await mcpCall(token)).status).toBe(200);
    await updateRole(t.server.app.db, t.clinic.account, system, 'receptionist', {
      permissions: DEFAULT_ROLES.receptionist.permissions,
      record_scope: 'all',
    });
    const lost = await mcpCall(token);
    expect([lost.status, (await lost.json()).code]).toEqual([403, 'connector_not_permitted']);
    await updateRole(t.server.app.db, t.clinic.account, system, 'receptionist', {
      permissions: [...DEFAULT_ROLES.receptionist.permissions, 'connectors.manage'],
      record_scope: 'all',
    });
    await setActive(t.server.app.db, t.clinic.account, system, member.id, false);
    const inactive = await mcpCall(token);
    expect([inactive.status, (await inactive.json()).code]).toEqual([401, 'user_inactive']);
  });
});

describe('the MCP budget', () => {
  test('120 requests a minute per account, shared by every connector, apart from the REST budget; then 429 with Retry-After', async () => {
    const [one, two] = [
      (await connect(adminPortal, as, shared)).tokens.access_token,
      (await connect(adminPortal, as, shared)).tokens.access_token,
    ];
    // The budget is a per-minute window: the clock stays inside one.
    heldAt = Date.now();
    onTestFinished(() => {
      heldAt = undefined;
    });
    const first = await mcpCall(one);
    expect(first.headers.get('x-ratelimit-limit')).toBe('120');
    let remaining = Number(first.headers.get('x-ratelimit-remaining'));
    const restBefore = await t.api.get('/me');
    for (let i = 0; remaining > 0; i++) {
      const res = await mcpCall(i % 2 ? one : two);
      expect(res.status).toBe(200);
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
      remaining--;
    }
    const over = await mcpCall(two);
    expect([over.status, (await over.json()).code]).toEqual([429, 'rate_limited']);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    const restAfter = await t.api.get('/me');
    expect(restAfter.status).toBe(200);
    expect(Number(restAfter.headers['x-ratelimit-remaining'])).toBe(
      Number(restBefore.headers['x-ratelimit-remaining']) - 1,
    );
  }, 60_000);
});

/** A tools/list call over plain HTTP, for status checks. */
function mcpCall(token: string) {
  return fetchVia(mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
}

/** The OAuth error code a client library call failed with. */
async function oauthError(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return (err as { error?: string }).error;
  }
}
