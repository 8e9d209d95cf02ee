/**
 * Security headers on every response the node:http server sends, whichever handler answers: nosniff,
 * no framing (X-Frame-Options and CSP frame-ancestors), a CSP that loads nothing for what is not a
 * page, and HSTS only over https. (Next's pages and their nonce: e2e/security-headers.spec.ts.)
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { newClinic, request, startServer, type Clinic, type Res, type TestServer } from './helpers';

const NOT_A_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'";
const HSTS = 'max-age=63072000; includeSubDomains';

function expectSecured(res: Res) {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['content-security-policy']).toBe(NOT_A_PAGE_CSP);
}

describe('over http', () => {
  let server: TestServer;
  let clinic: Clinic;
  let elsewhere: Clinic;
  beforeAll(async () => {
    server = await startServer({ SERVICE_REGIONS: 'neptune,mercury' });
    [clinic, elsewhere] = [await newClinic(server), await newClinic(server, { region: 'apollo' })];
  });
  afterAll(() => server.close());

  // What each handler answers, with its own way of writing headers (writeHead with a header object,
  // setHeader then end, a library's response): none may drop the headers set before dispatch.
  const cases: [string, () => Promise<Res>, number][] = [
    ['REST JSON, 200', () => request(server, 'GET', '/ping', { host: clinic.host }), 200],
    ['REST JSON, 200 with a key', () => request(server, 'GET', '/me', { host: clinic.host, key: clinic.key }), 200],
    ['REST JSON, 401', () => request(server, 'GET', '/me', { host: clinic.host }), 401],
    ['REST JSON, 404', () => request(server, 'GET', '/no-such-resource', { host: clinic.host, key: clinic.key }), 404],
    [
      'OAuth discovery document',
      () => request(server, 'GET', '/.well-known/oauth-authorization-server', { host: clinic.host }),
      200,
    ],
    [
      'OAuth client registration, 400',
      () => request(server, 'POST', '/v3/oauth2/register', { host: clinic.host, body: {} }),
      400,
    ],
    ['MCP without a token, 401', () => request(server, 'POST', '/v3/api/mcp', { host: clinic.host, body: {} }), 401],
    [
      'portal tRPC transport, 401',
      () => request(server, 'GET', '/developers/trpc/session.me', { host: clinic.host }),
      401,
    ],
    [
      'an unknown path without a fallback, 404',
      () => request(server, 'GET', '/developers/connect', { host: clinic.host }),
      404,
    ],
    ["another region's clinic host, 421", () => request(server, 'GET', '/ping', { host: elsewhere.host }), 421],
  ];

  test.each(cases)('%s: nosniff, DENY, a CSP that loads nothing, no HSTS', async (_, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expectSecured(res);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  test('X-Forwarded-Proto is not believed without TRUST_PROXY: no HSTS', async () => {
    const res = await request(server, 'GET', '/ping', { host: clinic.host, headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('over https behind a trusted proxy', () => {
  let server: TestServer;
  let clinic: Clinic;
  beforeAll(async () => {
    server = await startServer({ TRUST_PROXY: '1' });
    clinic = await newClinic(server);
  });
  afterAll(() => server.close());

  const https = { 'x-forwarded-proto': 'https' };
  test.each([
    ['/v3/api/ping', 200],
    ['/v3/api/me', 401],
    ['/.well-known/oauth-authorization-server', 200],
    ['/developers/trpc/session.me', 401],
    ['/developers/nowhere', 404],
  ] as const)('%s: HSTS with the other headers', async (path, status) => {
    const res = await request(server, 'GET', path, { host: clinic.host, headers: https });
    expect(res.status).toBe(status);
    expectSecured(res);
    expect(res.headers['strict-transport-security']).toBe(HSTS);
  });

  test('the proxy saying http: no HSTS', async () => {
    const res = await request(server, 'GET', '/v3/api/ping', {
      host: clinic.host,
      headers: { 'x-forwarded-proto': 'http' },
    });
    expectSecured(res);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});
