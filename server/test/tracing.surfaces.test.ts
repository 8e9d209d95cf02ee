/**
 * Spans of every surface (server/observability/tracing.ts), exported to the SDK's in-memory exporter:
 * each request's server span is named by its route template and carries its X-Request-Id; under it the
 * tenant (host → clinic) and the credential check of its surface (API key, portal session, OAuth access
 * token, OAuth client). Then a scenario across REST, the portal, MCP, OAuth and a webhook delivery, and
 * every attribute of every span it exported is searched for what must never be there: the seeded
 * patient's name and email, the API key, the member's password and session, the access token, and the
 * clinic's account id (allowed only where a number is a measure, never as an identifier).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import { createEndpoint } from '../domain/webhooks';
import { startTracing } from '../observability/tracing';
import { activeMember } from '../auth/members';
import { request, useClinic, type Res } from './helpers';
import { accessToken } from './support/mcp-tools';
import { PASSWORD, signedIn } from './support/portal';

const exporter = new InMemorySpanExporter();
// Before the server is built (its gateway wraps the procedures then): the suite's beforeAll comes later.
const tracing = startTracing(
  { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' },
  { spanProcessors: [new SimpleSpanProcessor(exporter)] },
);
const t = useClinic({ seed: true });

const receiver = http.createServer((req, res) => req.resume().on('end', () => res.end('ok')));
beforeAll(async () => {
  await tracing?.ready;
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await tracing?.shutdown();
  await new Promise<void>((r) => receiver.close(() => r()));
});
beforeEach(() => exporter.reset());

/** The clinic's owner, signed in to the portal once for the file (a clinic has one owner). */
let owner: ReturnType<typeof signedIn> | undefined;
const signedInOwner = () => (owner ??= signedIn(t.server, t.clinic, 'owner'));

const SERVER = 1;
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
/** The server span of a response (by its X-Request-Id) and the names of the spans right under it. */
function requestSpans(res: Res) {
  const requestId = res.headers['x-request-id'];
  expect(requestId).toBeTruthy();
  const spans = exporter.getFinishedSpans();
  const server = spans.filter((s) => s.kind === SERVER && s.attributes['clinic.request_id'] === requestId);
  expect(server, spans.map((s) => `${s.name} ${s.attributes['clinic.request_id']}`).join(', ')).toHaveLength(1);
  const under = spans.filter((s) => parentOf(s) === server[0].spanContext().spanId);
  return { server: server[0], under, named: (name: string) => under.find((s) => s.name === name) };
}

const mcpCall = (token: string | null, body: unknown) =>
  request(t.server, 'POST', '/v3/api/mcp', {
    host: t.clinic.host,
    raw: JSON.stringify(body),
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
  });

test('REST: tenant and key check under the request, before the procedure', async () => {
  const res = await t.api.get('/me');
  expect(res.status).toBe(200);
  const { server, named } = requestSpans(res);
  expect(server.name).toBe('GET /v3/api/me');
  expect(named('tenant resolve')?.attributes).toEqual({ 'clinic.tenant.found': true });
  expect(named('auth api_key')?.attributes).toEqual({ 'clinic.auth.outcome': 'accepted' });
  expect(named('procedure meta.me')).toBeDefined();
  // In that order: the procedure starts after the key was accepted.
  // A span's start is [seconds, nanoseconds]: compared as numbers (as arrays `>=` compares their text).
  const start = (name: string) => {
    const [seconds, nanos] = named(name)!.startTime;
    return seconds * 1e9 + nanos;
  };
  expect(start('auth api_key') >= start('tenant resolve')).toBe(true);

  const refused = await request(t.server, 'GET', '/me', {
    host: t.clinic.host,
    key: 'cpk_not_a_key_of_anyone_0000000000000000',
  });
  expect(refused.status).toBe(401);
  expect(requestSpans(refused).named('auth api_key')?.attributes).toEqual({ 'clinic.auth.outcome': 'refused' });

  const nowhere = await request(t.server, 'GET', '/me', {
    host: 'no-such-clinic.neptune.localhost',
    key: t.clinic.key,
  });
  expect(nowhere.status).toBe(404);
  const unknown = requestSpans(nowhere);
  expect(unknown.named('tenant resolve')?.attributes).toEqual({ 'clinic.tenant.found': false });
  expect(unknown.named('auth api_key')).toBeUndefined();
});

test('portal: the call named by its procedure, with its request id; tenant and session check under it', async () => {
  const { portal } = await signedInOwner();
  exporter.reset();
  const res = await portal.query('session.me');
  expect(res.status).toBe(200);
  const { server, named } = requestSpans(res);
  expect(server.name).toBe('GET /developers/trpc/session.me');
  expect(server.attributes['http.route']).toBe('/developers/trpc/session.me');
  expect(named('tenant resolve')?.attributes).toEqual({ 'clinic.tenant.found': true });
  expect(named('auth session')?.attributes).toEqual({ 'clinic.auth.outcome': 'accepted' });

  const stale = await request(t.server, 'GET', '/developers/trpc/session.me', {
    host: t.clinic.host,
    headers: { cookie: 'clinic_session=not-a-session' },
  });
  expect(requestSpans(stale).named('auth session')?.attributes).toEqual({ 'clinic.auth.outcome': 'refused' });
  const unknown = await request(t.server, 'GET', '/developers/trpc/no.such.procedure', { host: t.clinic.host });
  const other = requestSpans(unknown).server;
  expect(other.name).toBe('GET (unmatched)');
  expect(other.attributes['http.route']).toBeUndefined();
});

test('MCP and OAuth: named by their route, with the access-token and client checks as spans', async () => {
  const { member } = await signedInOwner();
  const token = await accessToken(
    t.server,
    t.clinic,
    (await activeMember(t.server.app.db.db, t.clinic.account.id, member.id))!,
  );
  exporter.reset();
  const listed = await mcpCall(token, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
  expect(listed.status).toBe(200);
  const mcp = requestSpans(listed);
  expect(mcp.server.name).toBe('POST /v3/api/mcp');
  expect(mcp.named('tenant resolve')).toBeDefined();
  expect(mcp.named('auth oauth_token')?.attributes).toEqual({ 'clinic.auth.outcome': 'accepted' });
  const bad = await mcpCall('not-a-token', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
  expect(bad.status).toBe(401);
  expect(requestSpans(bad).named('auth oauth_token')?.attributes).toEqual({ 'clinic.auth.outcome': 'refused' });

  const refused = await request(t.server, 'POST', '/v3/oauth2/token', {
    host: t.clinic.host,
    raw: 'grant_type=authorization_code&code=nope&client_id=nobody',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(refused.status).toBe(401);
  const oauth = requestSpans(refused);
  expect(oauth.server.name).toBe('POST /v3/oauth2/token');
  const client = oauth.named('auth oauth_client');
  expect(client?.status.code).toBe(2);
  expect(client?.attributes['error.type']).toBe('invalid_client');
});

test('a scenario across every surface exports no patient data, credential or account id', async () => {
  const list = await t.api.get('/patients?page_size=50');
  expect(list.status).toBe(200);
  const seeded = (list.body.data as { id: number; first_name: string; last_name: string; email: string | null }[]).find(
    (p) => p.email,
  )!;
  expect(seeded).toBeDefined();
  const actor = { actor_type: 'system' as const, actor_id: null, actor_name: 'test' };
  await createEndpoint(
    t.server.app.db,
    t.clinic.account,
    actor,
    { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: 'all' },
    true,
  );
  const { member, portal } = await signedInOwner();
  const session = portal.cookie.split('=')[1];
  const token = await accessToken(
    t.server,
    t.clinic,
    (await activeMember(t.server.app.db.db, t.clinic.account.id, member.id))!,
  );
  exporter.reset();

  // REST: the patient read, searched by name and email, and changed (a webhook delivery follows).
  expect((await t.api.get(`/patients/${seeded.id}`)).status).toBe(200);
  expect(
    (
      await t.api.get(
        `/patients?last_name=eq:${encodeURIComponent(seeded.last_name)}&email=eq:${encodeURIComponent(seeded.email!)}`,
      )
    ).status,
  ).toBe(200);
  expect((await t.api.patch(`/patients/${seeded.id}`, { body: { first_name: seeded.first_name } })).status).toBe(200);
  await t.server.app.webhooks.drain();
  // The portal: sign-in (email and password in the body), then a read with input in the query string.
  expect((await portal.signIn(member.email, PASSWORD)).status).toBe(200);
  expect((await portal.query('keys.list', {})).status).toBe(200);
  // MCP: a tool that finds the patient by name and email.
  const found = await mcpCall(token, {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'find_patient', arguments: { name: seeded.last_name, email: seeded.email } },
  });
  expect(found.status).toBe(200);
  expect(found.text).toContain(seeded.last_name);
  // OAuth: discovery and a refused token call naming a client.
  expect(
    (await request(t.server, 'GET', '/.well-known/oauth-authorization-server', { host: t.clinic.host })).status,
  ).toBe(200);
  expect(
    (
      await request(t.server, 'POST', '/v3/oauth2/token', {
        host: t.clinic.host,
        raw: `grant_type=refresh_token&refresh_token=${token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
    ).status,
  ).toBeGreaterThanOrEqual(400);

  // The delivery's client span ends when its socket closes, which may come after the attempt was recorded.
  await vi.waitFor(() => expect(exporter.getFinishedSpans().some((s) => s.name === 'webhook deliver')).toBe(true));
  const spans = exporter.getFinishedSpans();
  const names = spans.map((s) => s.name);
  for (const name of [
    'GET /v3/api/patients/{id}',
    'PATCH /v3/api/patients/{id}',
    'POST /developers/trpc/session.signIn',
    'GET /developers/trpc/keys.list',
    'POST /v3/api/mcp',
    'POST /v3/oauth2/token',
    'webhook deliver',
    'auth session',
    'auth oauth_token',
    'auth api_key',
    'tenant resolve',
  ]) {
    expect(names).toContain(name);
  }

  const entries = spans.flatMap((s) =>
    Object.entries(s.attributes).map(([key, value]) => ({ span: s.name, key, value })),
  );
  const text = [...names, ...entries.map((e) => `${e.key}=${String(e.value)}`)].join('\n');
  for (const secret of [
    seeded.first_name,
    seeded.last_name,
    seeded.email!,
    t.clinic.key,
    PASSWORD,
    member.email,
    session,
    token,
  ]) {
    expect(text, `an attribute carries ${secret}`).not.toContain(secret);
  }
  // The account id: never an attribute of its own, nor the value of one. Measures and ids of other rows
  // (a webhook message, an endpoint) may equal it by chance.
  expect(entries.filter((e) => /account|tenant|clinic\.id/i.test(e.key) && e.key !== 'clinic.tenant.found')).toEqual(
    [],
  );
  const OTHER_NUMBERS = /(status_code|port|attempt|size|length|count|rows|message_id|endpoint_id)$/;
  const id = t.clinic.account.id;
  expect(
    entries
      .filter((e) => (e.value === id || e.value === String(id)) && !OTHER_NUMBERS.test(e.key))
      .map((e) => `${e.span} ${e.key}=${String(e.value)}`),
  ).toEqual([]);
});
