/**
 * Health checks for operators: GET /healthz (liveness) and GET /readyz (the database answers and has
 * every migration of this build) on any host, with no key, no budget and no request-log row; /readyz
 * is 503 when the database is unreachable or lacks a migration.
 */
import http from 'node:http';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allIn } from '../../db/client';
import { isPg } from '../../db/dialect';
import { requestLog } from '../../db/schema';
import { newClinic, request, startServer, type Clinic, type Res, type TestServer } from './helpers';
import { ownDatabaseUrl } from './support/own-database';

let server: TestServer;
let clinic: Clinic;

beforeAll(async () => {
  // The unauthenticated budget as in production (2 a minute): a probe that spent it would soon be 429.
  server = await startServer({ SERVICE_REGIONS: 'neptune,mercury', RATE_LIMIT_UNAUTH_PER_MINUTE: '2' });
  clinic = await newClinic(server);
});
afterAll(() => server?.close());

/** A request for a path outside the API's (the helpers' `request` puts others under /v3/api). */
function probe(s: TestServer, method: string, path: string, host: string): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: s.port, method, path, headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, text, body: text ? JSON.parse(text) : undefined }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

function expectOk(res: Res) {
  expect([res.status, res.text]).toEqual([200, '{"status":"ok"}']);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(res.headers['x-ratelimit-limit'], 'no budget').toBeUndefined();
}

describe('/healthz and /readyz', () => {
  const hosts = () => [
    ['a clinic host', clinic.host],
    ['the host of no clinic', 'nobody.neptune.localhost'],
    ["a host of another region's clinic", `${clinic.account.subdomain}.vulcan.localhost`],
    ['a bare address', `127.0.0.1:${server.port}`],
  ];

  it('200 {status:"ok"} on any host, again and again (no budget), and HEAD', async () => {
    for (const [what, host] of hosts()) {
      for (const path of ['/healthz', '/readyz']) {
        for (let i = 0; i < 3; i++) expectOk(await probe(server, 'GET', path, host));
        const head = await probe(server, 'HEAD', path, host);
        expect([head.status, head.text], `HEAD ${path} on ${what}`).toEqual([200, '']);
      }
    }
  });

  it('other methods → 405 with Allow', async () => {
    const res = await probe(server, 'POST', '/readyz', clinic.host);
    expect([res.status, res.body.code, res.headers.allow]).toEqual([405, 'method_not_allowed', 'GET, HEAD']);
  });

  it('no request-log row, where an API call on the same host has one', async () => {
    for (const path of ['/healthz', '/readyz']) expectOk(await probe(server, 'GET', path, clinic.host));
    expect((await request(server, 'GET', '/ping', { host: clinic.host, key: clinic.key })).status).toBe(200);
    await server.app.requestLog.flush();
    const rows = await server.app.db.db
      .select({ path: requestLog.path })
      .from(requestLog)
      .where(
        and(
          eq(requestLog.account_id, clinic.account.id),
          inArray(requestLog.path, ['/healthz', '/readyz', '/v3/api/ping']),
        ),
      );
    expect(rows.map((r) => r.path)).toEqual(['/v3/api/ping']);
  });
});

describe('/readyz when the database cannot serve', () => {
  it('503 not_ready when the database lacks a migration of this build; /healthz stays 200', async () => {
    const own = await startServer({ DATABASE_URL: await ownDatabaseUrl() });
    try {
      expectOk(await probe(own, 'GET', '/readyz', 'any.neptune.localhost'));
      const table = isPg ? sql`drizzle.__drizzle_migrations` : sql`__drizzle_migrations`;
      await own.app.db.transaction((tx) =>
        allIn(tx, sql`delete from ${table} where created_at = (select max(created_at) from ${table}) returning id`),
      );
      const res = await probe(own, 'GET', '/readyz', 'any.neptune.localhost');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ message: expect.stringMatching(/migrations/), code: 'not_ready' });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expectOk(await probe(own, 'GET', '/healthz', 'any.neptune.localhost'));
    } finally {
      await own.close();
    }
  });

  it('503 not_ready when the database is unreachable (the server’s handle closed); /healthz stays 200', async () => {
    const own = await startServer({ DATABASE_URL: await ownDatabaseUrl() });
    try {
      await own.app.db.close();
      const res = await probe(own, 'GET', '/readyz', clinic.host);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ message: 'The database is unreachable', code: 'not_ready' });
      expectOk(await probe(own, 'GET', '/healthz', clinic.host));
    } finally {
      // Its buffers cannot be flushed into the closed database: that failure is expected here.
      await own.close().catch(() => undefined);
    }
  });
});
