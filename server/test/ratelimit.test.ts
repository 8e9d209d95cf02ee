import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, expectError, newClinic, request, startServer, type Clinic, type TestServer } from './helpers';

let server: TestServer;
let second: TestServer;
let clinic: Clinic;

beforeAll(async () => {
  const limits = { RATE_LIMIT_REST_PER_MINUTE: '6', RATE_LIMIT_UNAUTH_PER_MINUTE: '2', TRUST_PROXY: '1' };
  server = await startServer(limits);
  second = await startServer(limits);
  clinic = await newClinic(server);
});
afterAll(async () => {
  await server.close();
  await second.close();
});

/** Requests right at a minute boundary would land in two windows; wait until we are clear of one. */
async function awayFromWindowEdge() {
  const into = Date.now() % 60_000;
  if (into > 55_000) await new Promise((r) => setTimeout(r, 60_500 - into));
}

describe('rate limits', () => {
  it('one budget per account across keys and server processes; 429 with Retry-After', async () => {
    await awayFromWindowEdge();
    const other = clinic.readOnlyKey;
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await client(server, clinic).get('/ping');
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('6');
      remaining.push(Number(res.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual([5, 4, 3]);
    await new Promise((r) => setTimeout(r, 300)); // let process one flush its count
    const viaSecond = await client(second, clinic, other).get('/ping');
    expect(viaSecond.status).toBe(200);
    expect(viaSecond.headers['x-ratelimit-remaining']).toBe('2');
    expect((await client(second, clinic, other).get('/ping')).status).toBe(200);
    expect((await client(second, clinic, other).get('/ping')).headers['x-ratelimit-remaining']).toBe('0');
    const limited = await client(second, clinic, other).get('/ping');
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    await new Promise((r) => setTimeout(r, 300));
    expectError(await client(server, clinic).get('/me'), 429, 'rate_limited');
  });

  it('unauthenticated requests: 2 per minute per IP', async () => {
    await awayFromWindowEdge();
    const ip = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    const headers = { 'X-Forwarded-For': ip };
    expectError(await request(server, 'GET', '/me', { host: clinic.host, headers }), 401, 'unauthenticated');
    expectError(await request(server, 'GET', '/me', { host: clinic.host, headers, key: 'bad' }), 401, 'unauthenticated');
    const third = await request(server, 'GET', '/me', { host: clinic.host, headers });
    expectError(third, 429, 'rate_limited');
    expect(third.headers['retry-after']).toBeDefined();
    // Another address has its own budget.
    expectError(await request(server, 'GET', '/me', { host: clinic.host, headers: { 'X-Forwarded-For': '198.51.100.7' } }), 401, 'unauthenticated');
  });
});
