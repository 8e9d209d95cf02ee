/**
 * HTTP edges every surface shares. An answer sent before the request body was read to the end (a body
 * over the size limit, a refusal before reading) closes the connection, so a keep-alive client's next
 * request goes on a new connection and is answered: the REST gateway, the portal's transport, OAuth and
 * MCP. And every answer carries X-Request-Id, and the budget headers where a budget applies: 421
 * wrong_region, 503 request_timeout, MCP refusals, OAuth and discovery answers.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ROLES } from '../auth/permissions';
import { activeMember } from '../auth/members';
import { updateRole } from '../domain/team';
import { newClinic, request, startServer, type Clinic, type Res, type TestServer } from './helpers';
import { accessToken } from './support/mcp-tools';
import { addMember } from './support/portal';

const MAX_BODY = 65_536;
const SYSTEM = { actor_type: 'system' as const, actor_id: null, actor_name: 'test' };
const REDIRECT = 'http://127.0.0.1:8765/callback';

let server: TestServer;
let clinic: Clinic;
/** An access token for the MCP server, approved by a member who may connect AI apps. */
let token: string;
/** A member of the receptionist role, who approved `token`. */
let approver: Awaited<ReturnType<typeof addMember>>;

beforeAll(async () => {
  server = await startServer({ MAX_BODY_BYTES: String(MAX_BODY), SERVICE_REGIONS: 'neptune,mercury' });
  clinic = await newClinic(server);
  const withConnect = {
    permissions: [...DEFAULT_ROLES.receptionist.permissions, 'connectors.manage' as const],
    record_scope: 'all' as const,
  };
  await updateRole(server.app.db, clinic.account, SYSTEM, 'receptionist', withConnect);
  approver = await addMember(server, clinic, 'receptionist');
  token = await accessToken(server, clinic, (await activeMember(server.app.db.db, clinic.account.id, approver.id))!);
});
afterAll(() => server?.close());

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The client's port: which connection carried the request. */
  port: number;
}

/** One request through `agent`, its body written chunk by chunk (Transfer-Encoding: chunked). */
function exchange(
  agent: http.Agent,
  method: string,
  path: string,
  headers: Record<string, string>,
  chunks: Buffer[] = [],
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, method, path, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, text, port: req.socket!.localPort! }),
      );
    });
    // The rest of an oversized body may meet the closed connection after the answer: only an error
    // before the answer fails the request.
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to ${method} ${path} within 10 s`)));
    for (const c of chunks) req.write(c);
    req.end();
  });
}

const oversized = () => Array.from({ length: 4 }, () => Buffer.alloc(MAX_BODY, 0x20));

describe('an answer sent before the body was read closes the connection; the next request is answered on a new one', () => {
  const host = () => clinic.host;
  it.each<
    [
      string,
      () => { method: string; path: string; headers: Record<string, string> },
      number,
      () => { method: string; path: string; headers: Record<string, string> },
    ]
  >([
    [
      'REST: a chunked body over MAX_BODY_BYTES → 413',
      () => ({
        method: 'POST',
        path: '/v3/api/patients',
        headers: { host: host(), authorization: `Bearer ${clinic.key}`, 'content-type': 'application/json' },
      }),
      413,
      () => ({
        method: 'GET',
        path: '/v3/api/patients',
        headers: { host: host(), authorization: `Bearer ${clinic.key}` },
      }),
    ],
    [
      'REST: refused before the body is read (no key) → 401',
      () => ({
        method: 'POST',
        path: '/v3/api/patients',
        headers: { host: host(), 'content-type': 'application/json' },
      }),
      401,
      () => ({
        method: 'GET',
        path: '/v3/api/patients',
        headers: { host: host(), authorization: `Bearer ${clinic.key}` },
      }),
    ],
    [
      "the portal's transport: a chunked body over the limit → 413",
      () => ({
        method: 'POST',
        path: '/developers/trpc/session.signIn',
        headers: { host: host(), origin: `http://${host()}`, 'content-type': 'application/json' },
      }),
      413,
      () => ({ method: 'GET', path: '/developers/trpc/session.me', headers: { host: host() } }),
    ],
    [
      'OAuth registration: a chunked body over the limit → 413',
      () => ({
        method: 'POST',
        path: '/v3/oauth2/register',
        headers: { host: host(), 'content-type': 'application/json' },
      }),
      413,
      () => ({ method: 'GET', path: '/.well-known/oauth-authorization-server', headers: { host: host() } }),
    ],
    [
      'OAuth token endpoint: a chunked body over the limit → 413',
      () => ({
        method: 'POST',
        path: '/v3/oauth2/token',
        headers: { host: host(), 'content-type': 'application/x-www-form-urlencoded' },
      }),
      413,
      () => ({ method: 'GET', path: '/.well-known/oauth-authorization-server', headers: { host: host() } }),
    ],
    [
      'MCP: a chunked body over the limit, with a token → 413',
      () => ({
        method: 'POST',
        path: '/v3/api/mcp',
        headers: {
          host: host(),
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      }),
      413,
      () => ({ method: 'POST', path: '/v3/api/mcp', headers: { host: host(), 'content-type': 'application/json' } }),
    ],
    [
      'MCP: refused before the body is read (no token) → 401',
      () => ({ method: 'POST', path: '/v3/api/mcp', headers: { host: host(), 'content-type': 'application/json' } }),
      401,
      () => ({ method: 'POST', path: '/v3/api/mcp', headers: { host: host(), 'content-type': 'application/json' } }),
    ],
  ])('%s', async (_, first, status, next) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const a = first();
      const refused = await exchange(agent, a.method, a.path, a.headers, oversized());
      expect(refused.status, refused.text).toBe(status);
      expect(refused.headers.connection).toBe('close');
      const b = next();
      const after = await exchange(agent, b.method, b.path, b.headers, b.method === 'POST' ? [Buffer.from('{}')] : []);
      expect(after.status).toBeLessThan(500);
      expect(after.port, 'the next request went on a new connection').not.toBe(refused.port);
    } finally {
      agent.destroy();
    }
  });

  it('a body read to the end keeps the connection: the next request goes on the same one', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const headers = { host: clinic.host, authorization: `Bearer ${clinic.key}`, 'content-type': 'application/json' };
      const created = await exchange(agent, 'POST', '/v3/api/patients', headers, [
        Buffer.from('{"first_name":"Kept",'),
        Buffer.from('"last_name":"Alive"}'),
      ]);
      expect(created.status).toBe(201);
      expect(created.headers.connection).toBe('keep-alive');
      const after = await exchange(agent, 'GET', '/v3/api/patients', headers);
      expect([after.status, after.port]).toEqual([200, created.port]);
    } finally {
      agent.destroy();
    }
  });
});

describe('X-Request-Id on every answer, and the budget headers where a budget applies', () => {
  const budgeted = (res: Res) => {
    expect(res.headers['x-request-id'], res.text).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(res.headers['x-ratelimit-limit']), `X-RateLimit-Limit: ${res.text}`).toBeGreaterThan(0);
    expect(Number(res.headers['x-ratelimit-remaining']), `X-RateLimit-Remaining: ${res.text}`).toBeGreaterThanOrEqual(
      0,
    );
  };
  const mcp = (headers: Record<string, string>, host = clinic.host) =>
    request(server, 'POST', '/v3/api/mcp', {
      host,
      raw: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      headers: { accept: 'application/json, text/event-stream', ...headers },
    });

  it('421 wrong_region, on every surface', async () => {
    const elsewhere = `${clinic.account.subdomain}.vulcan.localhost`;
    for (const path of [
      '/v3/api/patients',
      '/v3/api/mcp',
      '/.well-known/oauth-authorization-server',
      '/developers/trpc/session.me',
      '/developers',
    ]) {
      const res = await request(server, 'GET', path, { host: elsewhere });
      expect(res.status, path).toBe(421);
      budgeted(res);
    }
  });

  it('MCP refusals: unknown clinic, no token, a foreign Origin, an invalid token, a member without Connect AI apps', async () => {
    const refusals: [string, Promise<Res>, number][] = [
      ['unknown clinic', mcp({}, 'nobody.neptune.localhost'), 404],
      ['no token', mcp({}), 401],
      ['a foreign Origin without a token', mcp({ origin: 'https://evil.example' }), 403],
      ['an invalid token', mcp({ authorization: 'Bearer not-a-token' }), 401],
    ];
    for (const [what, pending, status] of refusals) {
      const res = await pending;
      expect(res.status, what).toBe(status);
      budgeted(res);
    }
    const allowed = await mcp({ authorization: `Bearer ${token}` });
    expect(allowed.status, allowed.text).toBe(200);
    budgeted(allowed);
    await updateRole(server.app.db, clinic.account, SYSTEM, 'receptionist', {
      permissions: DEFAULT_ROLES.receptionist.permissions,
      record_scope: 'all',
    });
    try {
      const lost = await mcp({ authorization: `Bearer ${token}` });
      expect([lost.status, lost.body?.code]).toEqual([403, 'connector_not_permitted']);
      budgeted(lost);
    } finally {
      await updateRole(server.app.db, clinic.account, SYSTEM, 'receptionist', {
        permissions: [...DEFAULT_ROLES.receptionist.permissions, 'connectors.manage'],
        record_scope: 'all',
      });
    }
  });

  it('OAuth and discovery answers', async () => {
    const host = clinic.host;
    const budgetedAnswers: [string, Promise<Res>, number][] = [
      ['discovery', request(server, 'GET', '/.well-known/oauth-authorization-server', { host }), 200],
      [
        'protected-resource discovery',
        request(server, 'GET', '/.well-known/oauth-protected-resource/v3/api/mcp', { host }),
        200,
      ],
      [
        'discovery for no clinic',
        request(server, 'GET', '/.well-known/oauth-authorization-server', { host: 'nobody.neptune.localhost' }),
        404,
      ],
      [
        'the token endpoint for no clinic',
        request(server, 'POST', '/v3/oauth2/token', {
          host: 'nobody.neptune.localhost',
          raw: 'grant_type=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        404,
      ],
      [
        'registration',
        request(server, 'POST', '/v3/oauth2/register', {
          host,
          body: { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' },
        }),
        201,
      ],
      [
        'a refused token request',
        request(server, 'POST', '/v3/oauth2/token', {
          host,
          raw: 'grant_type=authorization_code&client_id=nobody',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        401,
      ],
    ];
    for (const [what, pending, status] of budgetedAnswers) {
      const res = await pending;
      expect(res.status, `${what}: ${res.text}`).toBe(status);
      budgeted(res);
    }
    // No budget applies to a CORS preflight or to a browser's authorization request: the request id only.
    for (const res of [
      await request(server, 'OPTIONS', '/v3/oauth2/token', { host }),
      await request(server, 'GET', '/v3/oauth2/authorize?client_id=nobody', { host }),
    ]) {
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('503 request_timeout from the deadline sweeper', async () => {
    const slow = await startServer({ REQUEST_TIMEOUT_MS: '300' });
    try {
      const c = await newClinic(slow);
      const res = await new Promise<Res>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port: slow.port,
            method: 'POST',
            path: '/v3/api/patients',
            headers: {
              host: c.host,
              authorization: `Bearer ${c.key}`,
              'content-type': 'application/json',
              'content-length': '100',
            },
          },
          (r) => {
            let text = '';
            r.on('data', (d) => (text += d));
            r.on('end', () => resolve({ status: r.statusCode!, headers: r.headers, text, body: JSON.parse(text) }));
          },
        );
        req.on('error', reject);
        req.write('{"first_name":'); // ... and the rest never comes
      });
      expect([res.status, res.body.code]).toEqual([503, 'request_timeout']);
      budgeted(res);
    } finally {
      await slow.close();
    }
  });

  it('a path nothing serves: the request id', async () => {
    const res = await request(server, 'GET', '/developers/nowhere', { host: clinic.host });
    expect(res.status).toBe(404);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
