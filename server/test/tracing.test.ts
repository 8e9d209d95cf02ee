/**
 * OpenTelemetry (server/observability/tracing.ts), exported to the SDK's in-memory exporter: a request
 * is a server span named by its route template with the request id, a procedure span under it and the
 * database statements under that; a webhook delivery and a job run are spans; no attribute carries a
 * query-string value, the API key, or a webhook endpoint's query string. Off when the variable is unset.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import { createEndpoint } from '../domain/webhooks';
import { Scheduler } from '../scheduler/scheduler';
import { observing } from '../observability/hooks';
import { startTracing } from '../observability/tracing';
import { uniqueName, useClinic } from './helpers';

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

const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
/** Every attribute value of every span, as text. */
const allValues = (spans: ReadableSpan[]) =>
  spans.flatMap((s) => [s.name, ...Object.entries(s.attributes).flat().map(String)]).join('\n');

test('a request: server span (route template, request id) → procedure → database statements; no query values, no key', async () => {
  const surname = (await t.api.get('/patients?page_size=1')).body.data[0].last_name as string;
  exporter.reset();
  const res = await t.api.get(`/patients?last_name=eq:${encodeURIComponent(surname)}&page_size=2`);
  expect(res.status).toBe(200);
  const requestId = res.headers['x-request-id'];
  const spans = exporter.getFinishedSpans();
  const server = spans.find((s) => s.attributes['clinic.request_id'] === requestId && s.kind === 1);
  expect(server, spans.map((s) => s.name).join(', ')).toBeDefined();
  expect(server!.name).toBe('GET /v3/api/patients');
  expect(server!.attributes['http.route']).toBe('/v3/api/patients');
  expect(server!.attributes['url.query']).toBe('last_name&page_size');
  const procedure = spans.find((s) => s.name === 'procedure patients.list');
  expect(procedure).toBeDefined();
  expect(parentOf(procedure!)).toBe(server!.spanContext().spanId);
  expect(procedure!.attributes['clinic.request_id']).toBe(requestId);
  const statements = spans.filter(
    (s) =>
      parentOf(s) === procedure!.spanContext().spanId &&
      ['sqlite', 'postgresql'].includes(String(s.attributes['db.system.name'])),
  );
  expect(statements.length).toBeGreaterThanOrEqual(1);
  const text = allValues(spans);
  expect(text).not.toContain(surname);
  expect(text).not.toContain(t.clinic.key);
  expect(text.toLowerCase()).not.toContain('bearer');
  expect(spans.flatMap((s) => Object.keys(s.attributes)).filter((k) => /authorization|cookie/i.test(k))).toEqual([]);
});

test('a webhook delivery is a span with the outgoing call under it, the endpoint without its query string', async () => {
  const actor = { actor_type: 'system' as const, actor_id: null, actor_name: 'test' };
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook?token=s3cret-token`;
  const { endpoint } = await createEndpoint(t.server.app.db, t.clinic.account, actor, { url, events: 'all' }, true);
  expect((await t.api.post('/patients', { body: { first_name: 'Trace', last_name: 'Delivery' } })).status).toBe(201);
  await t.server.app.webhooks.drain();
  // The drain delivers whatever is due in the shared database, other files' messages too: this endpoint's.
  const delivery = exporter
    .getFinishedSpans()
    .find((s) => s.name === 'webhook deliver' && s.attributes['clinic.webhook.endpoint_id'] === endpoint.id);
  expect(delivery?.attributes['clinic.webhook.outcome']).toBe('delivered');
  // The client span ends when its socket closes, which may come after the delivery was recorded.
  const call = await vi.waitFor(
    () =>
      exporter
        .getFinishedSpans()
        .find(
          (s) => parentOf(s) === delivery!.spanContext().spanId && s.attributes['http.request.method'] === 'POST',
        ) ?? Promise.reject(new Error('no client span yet')),
  );
  expect(call.attributes['url.full']).toBe(url.split('?')[0]);
  expect(allValues(exporter.getFinishedSpans())).not.toContain('s3cret-token');
});

test('a job run is a span of its own', async () => {
  const name = uniqueName('tracing.job.');
  const scheduler = new Scheduler(t.server.app.db, [{ name, everyMs: 60_000, run: async () => undefined }]);
  expect(await scheduler.tick()).toEqual([name]);
  expect(exporter.getFinishedSpans().find((s) => s.name === `job ${name}`)?.attributes['clinic.job']).toBe(name);
});

test('off unless OTEL_EXPORTER_OTLP_ENDPOINT (or the traces one) is set', () => {
  const { OTEL_EXPORTER_OTLP_ENDPOINT: _a, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: _b, ...unset } = process.env;
  expect(startTracing(unset)).toBeNull();
  expect(
    startTracing({ ...unset, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }),
  ).toBeNull();
  expect(observing.tracing).not.toBeNull();
});
