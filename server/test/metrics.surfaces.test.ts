/**
 * The request metrics beyond REST (server/observability/hooks.ts watch()): the MCP server, the OAuth
 * endpoints and discovery documents, and the portal's procedures are counted in
 * clinic_http_request_duration_seconds by method, route template and status class; a path none of them
 * knows is the one `(unmatched)` label, a batched portal call one `(batch)` label; never a clinic, an
 * id, a token or a path as sent. Their 429s count in clinic_rate_limit_refusals_total under the
 * surface's name.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadEnv } from '../env';
import type { MetricsListener } from '../observability/metrics';
import { serveMetrics } from '../observability/start';
import { activeMember } from '../auth/members';
import { observing } from '../observability/hooks';
import { request, useClinic } from './helpers';
import { accessToken } from './support/mcp-tools';
import { portalCode, signedIn } from './support/portal';

// TRUST_PROXY: the throttled sign-ins below come from an address of their own (X-Forwarded-For).
const t = useClinic({ seed: true, env: { TRUST_PROXY: 'true' } });
let metrics: MetricsListener;

beforeAll(async () => {
  metrics = (await serveMetrics(loadEnv({ ...process.env, METRICS_PORT: '0' }), t.server.app.db))!;
});
afterAll(() => metrics?.close());

/** The value of one series, by its exact name and labels as printed; undefined when absent. */
const valueOf = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

const mcp = (headers: Record<string, string>) =>
  request(t.server, 'POST', '/v3/api/mcp', {
    host: t.clinic.host,
    raw: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
  });

test('MCP, OAuth and portal requests by route template and status class; unknown paths as one label', async () => {
  const { member, portal } = await signedIn(t.server, t.clinic, 'owner');
  const token = await accessToken(
    t.server,
    t.clinic,
    (await activeMember(t.server.app.db.db, t.clinic.account.id, member.id))!,
  );

  // MCP: one answered, one refused without a token.
  expect((await mcp({ authorization: `Bearer ${token}` })).status).toBe(200);
  expect((await mcp({})).status).toBe(401);

  // OAuth: a discovery document, a refused token call, an unknown endpoint.
  expect(
    (await request(t.server, 'GET', '/.well-known/oauth-authorization-server', { host: t.clinic.host })).status,
  ).toBe(200);
  const refusedToken = await request(t.server, 'POST', '/v3/oauth2/token', {
    host: t.clinic.host,
    raw: 'grant_type=authorization_code&code=nope',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(refusedToken.status).toBeGreaterThanOrEqual(400);
  expect(refusedToken.status).toBeLessThan(500);
  expect((await request(t.server, 'GET', '/v3/oauth2/no-such-endpoint-31337', { host: t.clinic.host })).status).toBe(
    404,
  );

  // Portal: the sign-in (above), two reads, an unknown procedure, a batch.
  expect((await portal.query('session.me')).status).toBe(200);
  expect((await portal.query('keys.list')).status).toBe(200);
  const unknown = await portal.query('nothing.here31337');
  expect(unknown.status).toBe(404);
  expect(portalCode(unknown)).toBeDefined();
  const batch = await request(t.server, 'GET', '/developers/trpc/keys.list,keys.list?batch=1&input=%7B%7D', {
    host: t.clinic.host,
    headers: { cookie: portal.cookie },
  });
  expect(batch.status, batch.text).toBe(200);

  const res = await fetch(`http://127.0.0.1:${metrics.port}/metrics`);
  expect(res.status).toBe(200);
  const text = await res.text();
  const count = (method: string, route: string, cls: string) =>
    valueOf(
      text,
      `clinic_http_request_duration_seconds_count{method="${method}",route="${route}",status_class="${cls}"}`,
    );
  expect(count('POST', '/v3/api/mcp', '2xx')).toBe(1);
  expect(count('POST', '/v3/api/mcp', '4xx')).toBe(1);
  expect(count('GET', '/.well-known/oauth-authorization-server', '2xx')).toBe(1);
  expect(count('POST', '/v3/oauth2/token', '4xx')).toBe(1);
  expect(count('POST', '/developers/trpc/session.signIn', '2xx')).toBe(1);
  expect(count('GET', '/developers/trpc/session.me', '2xx')).toBe(1);
  expect(count('GET', '/developers/trpc/keys.list', '2xx')).toBe(1);
  expect(count('GET', '/developers/trpc/(batch)', '2xx')).toBe(1);
  // The unknown OAuth endpoint and the unknown procedure: one label for both.
  expect(count('GET', '(unmatched)', '4xx')).toBe(2);

  // Bounded labels: no path as sent, no clinic, no token.
  expect(text).not.toContain('31337');
  expect(text).not.toContain(t.clinic.account.subdomain);
  expect(text).not.toContain(token);
  expect(text).not.toContain('keys.list,keys.list');
}, 60_000);

test('429s of the MCP, OAuth and portal surfaces count as rate-limit refusals under their own budget label', async () => {
  const scrape = async () => (await fetch(`http://127.0.0.1:${metrics.port}/metrics`)).text();
  const refusals = (text: string, budget: string) =>
    valueOf(text, `clinic_rate_limit_refusals_total{budget="${budget}"}`) ?? 0;
  const before = await scrape();

  // Portal, for real: five wrong passwords for one email from one address, then the throttle answers 429
  // (an address of its own, so no other test's budget is touched).
  const signIn = () =>
    request(t.server, 'POST', '/developers/trpc/session.signIn', {
      host: t.clinic.host,
      body: { email: 'nobody-metrics@example.com', password: 'wrong password' },
      headers: { origin: `http://${t.clinic.host}`, 'x-forwarded-for': '198.51.100.71' },
    });
  const portalAnswers: number[] = [];
  for (let i = 0; i < 6; i++) portalAnswers.push((await signIn()).status);
  expect(portalAnswers.at(-1)).toBe(429);

  // MCP and OAuth 429s come from budgets shared by every test of the suite's database (an address's
  // discovery budget, a clinic's MCP budget): spending them here would refuse other files' requests. Their
  // answers reach the observer as the portal's do (watch(), server/observability/hooks.ts), so it is
  // handed one each, as watch() would.
  observing.metrics!.served('/v3/api/mcp', 'POST', 429, 1, undefined, 'mcp');
  observing.metrics!.served('/.well-known/oauth-authorization-server', 'GET', 429, 1, undefined, 'oauth');

  const after = await scrape();
  expect(refusals(after, 'portal') - refusals(before, 'portal')).toBe(portalAnswers.filter((s) => s === 429).length);
  expect(refusals(after, 'mcp') - refusals(before, 'mcp')).toBe(1);
  expect(refusals(after, 'oauth') - refusals(before, 'oauth')).toBe(1);
}, 60_000);
