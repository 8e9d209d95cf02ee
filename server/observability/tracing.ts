/**
 * OpenTelemetry traces with the official Node SDK, off unless OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set; the SDK reads the other standard variables itself
 * (OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER...).
 *
 * A request is the HTTP server span (instrumentation-http), named by its route template and carrying
 * the request id (REST, the MCP server, OAuth endpoints, portal procedures); under it the tenant
 * (`tenant resolve`), the credential check of its surface (`auth api_key`, `auth session`,
 * `auth oauth_token`, `auth oauth_client`), a span per procedure, and under those one per database
 * statement (pg's instrumentation; SQLite statements by hand, below). A webhook delivery is a span with the outgoing
 * HTTP call under it; a job run is a span. What no span carries: query-string values (only the
 * parameter names are kept), request or response headers (so never Authorization or a cookie), SQL
 * parameter values, error messages of procedures (they can quote what was sent: the error's code
 * only), a webhook endpoint's query string.
 *
 * The SDK and instrumentations are CommonJS, loaded with require only when tracing is on (a server
 * without it never loads them), from server/observability/preload.ts before the server's modules.
 */
import { createRequire } from 'node:module';
import type * as Api from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { RequestOptions } from 'node:http';
import type { Route } from '../rest/routes';
import { combine, observing, UNMATCHED, type Observer } from './hooks';

const require = createRequire(import.meta.url);

export const tracingConfigured = (env: NodeJS.ProcessEnv) =>
  !!(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) &&
  env.OTEL_SDK_DISABLED?.toLowerCase() !== 'true';

/** A query string as its parameter names only: `last_name=eq:Smith&page_size=2` → `last_name&page_size`. */
export const queryNames = (search: string) => [...new Set(new URLSearchParams(search).keys())].join('&');

export interface Tracing {
  /** Resolves once SQLite statements and webhook deliveries are wrapped too. */
  ready: Promise<void>;
  /** Flushes what is buffered and stops exporting. */
  shutdown(): Promise<void>;
}

/** Starts the SDK when the environment asks for it, else null. Tests pass their own span processors (an in-memory exporter). */
export function startTracing(
  env: NodeJS.ProcessEnv = process.env,
  opts: { spanProcessors?: SpanProcessor[] } = {},
): Tracing | null {
  if (!tracingConfigured(env)) return null;
  const api = require('@opentelemetry/api') as typeof Api;
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { UndiciInstrumentation } =
    require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  const sdk = new NodeSDK({
    ...(env.OTEL_SERVICE_NAME ? {} : { serviceName: 'clinic-api' }),
    ...(opts.spanProcessors ? { spanProcessors: opts.spanProcessors } : {}),
    instrumentations: [
      new HttpInstrumentation({
        // Parameter names only: values are what was searched for (a patient's name, an email).
        startIncomingSpanHook: (req) => {
          const q = (req.url ?? '').indexOf('?');
          return q < 0 ? {} : { 'url.query': queryNames((req.url ?? '').slice(q + 1)) };
        },
        // A webhook endpoint's URL without its query string (receivers put tokens there).
        startOutgoingSpanHook: (options: RequestOptions) => ({
          'url.full': `${options.protocol ?? 'http:'}//${options.hostname ?? options.host ?? 'localhost'}${options.port ? `:${options.port}` : ''}${(options.path ?? '/').split('?')[0]}`,
        }),
      }),
      // Statement text only (placeholders), never the values bound to it (enhancedDatabaseReporting stays off).
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  // The server's modules may already be loaded (an ES module's imports all load before its code runs;
  // the compiled bundle lifts every package import to its top): requiring the patched modules again
  // now patches their shared exports and prototypes in place.
  for (const id of ['node:http', 'node:https', 'pg/lib/client.js', 'pg-pool']) {
    try {
      require(id);
    } catch {
      // pg is only there for PostgreSQL.
    }
  }
  const tracer = api.trace.getTracer('clinic-api');
  observing.tracing = observer(api, tracer);
  combine();
  const ready = Promise.all([
    traceSqlite(api, tracer),
    traceDeliveries(api, tracer),
    traceTenantAndKeys(api, tracer),
  ]).then(() => undefined);
  const shutdown = () => sdk.shutdown();
  observing.stop = () => bounded(shutdown(), STOP_MS);
  return { ready, shutdown };
}

/** How long the graceful stop waits for the last spans to be exported (a collector that is down must not hold the exit). */
const STOP_MS = 5000;
const bounded = (work: Promise<void>, ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    work.then(
      () => (clearTimeout(timer), resolve()),
      () => (clearTimeout(timer), resolve()),
    );
  });

/**
 * `fn` in an active span of its own; `describe` adds attributes from its result. A failure sets the
 * span's status with the error's code or type only (a message can quote what was sent).
 */
function spanner(api: typeof Api, tracer: Api.Tracer) {
  return <T>(
    name: string,
    attributes: Api.Attributes,
    fn: () => Promise<T>,
    describe?: (result: T) => Api.Attributes,
  ): Promise<T> =>
    tracer.startActiveSpan(name, { attributes }, async (span) => {
      try {
        const result = await fn();
        if (describe) span.setAttributes(describe(result));
        return result;
      } catch (err) {
        // The API's `code`, or an OAuth error's `error` (both fixed vocabularies, never a message).
        const e = err as { code?: unknown; error?: unknown; constructor?: { name?: string } };
        span.setAttribute(
          'error.type',
          typeof e?.code === 'string'
            ? e.code
            : typeof e?.error === 'string'
              ? e.error
              : (e?.constructor?.name ?? 'Error'),
        );
        span.setStatus({ code: api.SpanStatusCode.ERROR });
        throw err;
      } finally {
        span.end();
      }
    });
}

function observer(api: typeof Api, tracer: Api.Tracer): Observer {
  const inSpan = spanner(api, tracer);
  return {
    request(route, method, _path, status, _ms, _authenticated, requestId) {
      const span = api.trace.getActiveSpan();
      if (!span) return;
      span.setAttribute('clinic.request_id', requestId);
      if (route !== undefined) {
        span.setAttribute('http.route', `/v3/api${route}`);
        span.updateName(`${method} /v3/api${route}`);
      }
      if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
    },
    served(route, method, status, _ms, requestId) {
      const span = api.trace.getActiveSpan();
      if (!span) return;
      if (requestId) span.setAttribute('clinic.request_id', requestId);
      if (route !== UNMATCHED) span.setAttribute('http.route', route);
      span.updateName(`${method} ${route}`);
      if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
    },
    span: (name, fn, describe) => inSpan(name, {}, fn, describe),
    delivery(outcome) {
      api.trace.getActiveSpan()?.setAttribute('clinic.webhook.outcome', outcome);
    },
    job: (job, run) => inSpan(`job ${job.name}`, { 'clinic.job': job.name }, () => job.run(run)),
    routes(routes: Route[]) {
      for (const route of routes) {
        const invoke = route.invoke;
        const name = `procedure ${route.procedurePath}`;
        route.invoke = (ctx, input) =>
          inSpan(name, { 'clinic.procedure': route.procedurePath, 'clinic.request_id': ctx.requestId }, () =>
            invoke(ctx, input),
          );
      }
    },
  };
}

/**
 * A span per SQLite statement run, by hand: better-sqlite3 runs statements synchronously, so wrapping
 * its Statement's run/get/all/iterate is the whole of it. The SQL text only (placeholders, no values).
 */
async function traceSqlite(api: typeof Api, tracer: Api.Tracer): Promise<void> {
  const { default: Database } = await import('../../db/sqlite-driver');
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = proto[method];
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      // Only inside a traced request, job or delivery: no root span per statement of start-up or a sweep's inner loop.
      if (!api.trace.getActiveSpan()) return original.apply(this, args);
      const span = tracer.startSpan(`sqlite ${this.source.trimStart().split(/\s/, 1)[0].toUpperCase()}`, {
        kind: api.SpanKind.CLIENT,
        attributes: { 'db.system.name': 'sqlite', 'db.query.text': this.source },
      });
      try {
        return original.apply(this, args);
      } catch (err) {
        span.setStatus({ code: api.SpanStatusCode.ERROR });
        throw err;
      } finally {
        span.end();
      }
    };
  }
}

/** A span per webhook delivery attempt, around the outgoing HTTP call and the recording of its result. */
async function traceDeliveries(api: typeof Api, tracer: Api.Tracer): Promise<void> {
  const { WebhookWorker } = await import('../webhooks/worker');
  const deliver = WebhookWorker.prototype.deliver;
  WebhookWorker.prototype.deliver = function (m, trigger) {
    return tracer.startActiveSpan(
      'webhook deliver',
      {
        attributes: {
          'clinic.webhook.message_id': m.id,
          'clinic.webhook.endpoint_id': m.endpoint_id,
          'clinic.webhook.event_type': m.event_type,
          'clinic.webhook.attempt': m.attempts,
        },
      },
      async (span) => {
        try {
          return await deliver.call(this, m, trigger);
        } catch (err) {
          span.setStatus({ code: api.SpanStatusCode.ERROR });
          throw err;
        } finally {
          span.end();
        }
      },
    );
  };
}

/**
 * The tenant (host → account) and API-key check of every request, as spans of their own, by wrapping
 * the two classes' methods here: the REST hot path carries no tracing call while tracing is off. What
 * they record: whether a clinic was found, whether the key was accepted; never the host's account, the
 * key, or its id.
 */
async function traceTenantAndKeys(api: typeof Api, tracer: Api.Tracer): Promise<void> {
  const inSpan = spanner(api, tracer);
  const [{ TenantResolver }, { Authenticator }] = await Promise.all([
    import('../tenancy'),
    import('../auth/authenticate'),
  ]);
  const resolve = TenantResolver.prototype.resolve;
  TenantResolver.prototype.resolve = function (host) {
    if (!api.trace.getActiveSpan()) return resolve.call(this, host);
    return inSpan(
      'tenant resolve',
      {},
      () => resolve.call(this, host),
      (account) => ({ 'clinic.tenant.found': account !== null }),
    );
  };
  const authenticate = Authenticator.prototype.authenticate;
  Authenticator.prototype.authenticate = function (header, accountId) {
    if (!api.trace.getActiveSpan()) return authenticate.call(this, header, accountId);
    return inSpan(
      'auth api_key',
      {},
      () => authenticate.call(this, header, accountId),
      (principal) => ({ 'clinic.auth.outcome': principal ? 'accepted' : 'refused' }),
    );
  };
}
