import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitBuckets } from '../../db/schema';
import { WINDOW_MS } from '../rest/ratelimit';
import { client, expectError, newClinic, request, startServer, type Clinic, type TestServer } from './helpers';

let server: TestServer;
let second: TestServer;
let clinic: Clinic;

// One fixed instant, early in the current minute, for every server here: all the hits of this file fall
// in one window however slow the machine is (no waiting for a minute's edge). Each test uses buckets
// of its own (the clinic's REST budget, or addresses of its own).
const clock = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS + 1000;
const now = () => clock;
/**
 * A client address no other test here has used (each has its own budget): random, so runs against a kept
 * database do not meet old buckets, and never the same twice in a run (two random picks met once in 250).
 */
const taken = new Set(['198.51.100.7']);
function freshAddress(net: '203.0.113' | '198.51.100'): string {
  for (;;) {
    const ip = `${net}.${Math.floor(Math.random() * 250) + 1}`;
    if (taken.has(ip)) continue;
    taken.add(ip);
    return ip;
  }
}

beforeAll(async () => {
  const limits = { RATE_LIMIT_REST_PER_MINUTE: '6', RATE_LIMIT_UNAUTH_PER_MINUTE: '2', TRUST_PROXY: '1' };
  server = await startServer(limits, { now });
  second = await startServer(limits, { now });
  clinic = await newClinic(server);
});
afterAll(async () => {
  await server.close();
  await second.close();
});

/** Waits until the shared count of a bucket (in the database, this window) reaches `n`. */
async function sharedCountReaches(bucket: string, n: number) {
  const window = Math.floor(clock / WINDOW_MS);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [row] = await server.app.db.db
      .select()
      .from(rateLimitBuckets)
      .where(and(eq(rateLimitBuckets.bucket, bucket), eq(rateLimitBuckets.window_start, window)));
    if (Number(row?.count ?? 0) >= n) return;
    if (Date.now() > deadline) throw new Error(`${bucket} did not reach ${n}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('rate limits', () => {
  it('one budget per account across keys and server processes; 429 with Retry-After', async () => {
    const other = clinic.readOnlyKey;
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await client(server, clinic).get('/ping');
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('6');
      remaining.push(Number(res.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual([5, 4, 3]);
    await sharedCountReaches(`rest:${clinic.account.id}`, 3); // process one has flushed its count
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
    await sharedCountReaches(`rest:${clinic.account.id}`, 6);
    expectError(await client(server, clinic).get('/me'), 429, 'rate_limited');
  });

  it('unauthenticated requests: 2 per minute per IP', async () => {
    const ip = freshAddress('203.0.113');
    const headers = { 'X-Forwarded-For': ip };
    expectError(await request(server, 'GET', '/me', { host: clinic.host, headers }), 401, 'unauthenticated');
    expectError(
      await request(server, 'GET', '/me', { host: clinic.host, headers, key: 'bad' }),
      401,
      'unauthenticated',
    );
    const third = await request(server, 'GET', '/me', { host: clinic.host, headers });
    expectError(third, 429, 'rate_limited');
    expect(third.headers['retry-after']).toBeDefined();
    // Another address has its own budget.
    expectError(
      await request(server, 'GET', '/me', { host: clinic.host, headers: { 'X-Forwarded-For': '198.51.100.7' } }),
      401,
      'unauthenticated',
    );
  });
});

describe('small budgets are exact across processes', () => {
  it('an unauthenticated budget of 2 admits exactly 2 requests sent at once to two processes', async () => {
    const headers = { 'X-Forwarded-For': freshAddress('203.0.113') };
    const answers = await Promise.all(
      [server, second, server, second, server, second].map((s) =>
        request(s, 'GET', '/me', { host: clinic.host, headers }),
      ),
    );
    expect(answers.filter((r) => r.status === 401)).toHaveLength(2);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(4);
  });
});

describe('TRUST_PROXY: the client is the entry that many hops from the right of X-Forwarded-For', () => {
  it('a client cannot escape its budget by sending its own X-Forwarded-For to a proxy that appends', async () => {
    const real = freshAddress('198.51.100');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      // What the proxy forwards: whatever the client claimed, then the address it saw.
      const res = await request(server, 'GET', '/ping', {
        host: clinic.host,
        headers: { 'X-Forwarded-For': `10.0.0.${i}, ${real}` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
  });

  it('TRUST_PROXY=2 takes the second entry from the right; on means 1; anything else stops the server', async () => {
    const { forwarded } = await import('../request-info');
    expect(forwarded('1.1.1.1, 2.2.2.2, 3.3.3.3', 1)).toBe('3.3.3.3');
    expect(forwarded('1.1.1.1, 2.2.2.2, 3.3.3.3', 2)).toBe('2.2.2.2');
    expect(forwarded(['1.1.1.1', '2.2.2.2'], 5)).toBe('1.1.1.1');
    expect(forwarded('1.1.1.1', 0)).toBeUndefined();
    const { loadEnv, ConfigError } = await import('../env');
    expect(loadEnv({ NODE_ENV: 'test', TRUST_PROXY: 'on' }).TRUST_PROXY).toBe(1);
    expect(loadEnv({ NODE_ENV: 'test', TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadEnv({ NODE_ENV: 'test' }).TRUST_PROXY).toBe(0);
    expect(() => loadEnv({ NODE_ENV: 'test', TRUST_PROXY: 'sometimes' })).toThrow(ConfigError);
    const two = await startServer({ RATE_LIMIT_UNAUTH_PER_MINUTE: '2', TRUST_PROXY: '2' }, { now });
    try {
      const ip = freshAddress('198.51.100');
      const via = (hop: string) =>
        request(two, 'GET', '/ping', { host: clinic.host, headers: { 'X-Forwarded-For': `${ip}, ${hop}` } });
      expect((await via('10.1.1.1')).status).toBe(200);
      expect((await via('10.1.1.2')).status).toBe(200);
      expect((await via('10.1.1.3')).status).toBe(429);
    } finally {
      await two.close();
    }
  });
});

describe('the sweep of ended windows', () => {
  it('a process whose clock runs ahead does not delete the windows the others are counting in', async () => {
    const { RateLimiter } = await import('../rest/ratelimit');
    const db = server.app.db;
    const present = new RateLimiter(db);
    const ahead = new RateLimiter(db, undefined, () => Date.now() + 3 * 3600_000);
    const bucket = `test:${freshAddress('198.51.100')}`;
    try {
      for (let i = 0; i < 5; i++) await present.take(bucket, 100);
      await present.flush();
      await ahead.take(`test:${freshAddress('198.51.100')}`, 100);
      await ahead.flush(); // its first flush sweeps what ended three hours after now
      const [row] = await db.db.select().from(rateLimitBuckets).where(eq(rateLimitBuckets.bucket, bucket));
      expect(Number(row?.count)).toBe(5);
      const fresh = new RateLimiter(db); // another process reads the shared count: the five still count
      expect((await fresh.take(bucket, 100)).remaining).toBe(94);
      await fresh.close();
    } finally {
      await present.close();
      await ahead.close();
    }
  });
});
