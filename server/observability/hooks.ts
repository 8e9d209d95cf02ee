/**
 * What the hot paths call into for metrics and traces: null unless METRICS_PORT or
 * OTEL_EXPORTER_OTLP_ENDPOINT switched them on at start-up (./metrics.ts, ./tracing.ts fill them in).
 * With both off a request pays for one property read, and prom-client and the OpenTelemetry SDK are
 * never loaded.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Job, JobResult, JobRun } from '../scheduler/scheduler';
import type { Route } from '../rest/routes';

/** A webhook attempt's result: 2xx, to be retried, or given up (410, or the retry schedule spent). */
export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed';

/** A request that matched no route: one label for every unknown path (never the path itself). */
export const UNMATCHED = '(unmatched)';

export interface Observer {
  /**
   * A REST request answered: its route template below /v3/api (undefined: no route matched), the path
   * as sent (only to tell /openapi.json apart; never recorded), status, duration, whether a key was
   * accepted, and the request id.
   */
  request(
    route: string | undefined,
    method: string | undefined,
    path: string,
    status: number,
    ms: number,
    authenticated: boolean,
    requestId: string,
  ): void;
  /**
   * A request of another surface answered (MCP, OAuth, the portal's tRPC): `route` is already a
   * template of that surface (never a path as sent), the request id its X-Request-Id if it has one.
   */
  served(
    route: string,
    method: string | undefined,
    status: number,
    ms: number,
    requestId: string | undefined,
    surface: Surface,
  ): void;
  /** `fn` inside a span of its own (tracing only), `describe` giving attributes from its result. */
  span?<T>(name: string, fn: () => Promise<T>, describe?: (result: T) => Record<string, string | boolean>): Promise<T>;
  /** A webhook attempt recorded: its outcome, when its message fell due, when the attempt started. */
  delivery(outcome: DeliveryOutcome, dueAt: string | null, startedAt: number): void;
  /** Runs a periodic job, observed. */
  job(job: Job, run: JobRun): Promise<JobResult>;
  /** Once, when the gateway is built: may wrap each route's procedure call (a span per procedure). */
  routes?(routes: Route[]): void;
}

export const observing: {
  metrics: Observer | null;
  tracing: Observer | null;
  any: Observer | null;
  /** Flushes buffered spans and stops the exporter: awaited by the graceful stop (server/serve.ts). */
  stop: (() => Promise<void>) | null;
} = { metrics: null, tracing: null, any: null, stop: null };

/** The surfaces beside REST: each spends budgets of its own (a 429 is counted under its name). */
export type Surface = 'mcp' | 'oauth' | 'portal';

/**
 * Records a request of the MCP, OAuth or portal surface once its response is sent, under `route` (a
 * template: the caller maps the path to one). On 'finish', before the HTTP instrumentation ends the
 * server span on 'close'. Nothing at all while both are off.
 */
export function watch(req: IncomingMessage, res: ServerResponse, route: string, surface: Surface): void {
  const any = observing.any;
  if (!any) return;
  const started = performance.now();
  res.once('finish', () => {
    const id = res.getHeader('x-request-id');
    any.served(
      route,
      req.method,
      res.statusCode,
      performance.now() - started,
      typeof id === 'string' ? id : undefined,
      surface,
    );
  });
}

/** `fn` in a span named `name` while tracing is on; otherwise just `fn()`. For paths off the REST hot path. */
export const traced = <T>(
  name: string,
  fn: () => Promise<T>,
  describe?: (result: T) => Record<string, string | boolean>,
): Promise<T> => (observing.tracing?.span ? observing.tracing.span(name, fn, describe) : fn());

/** Sets `any` to whichever observers are on (both: each in turn). */
export function combine(): void {
  const { metrics, tracing } = observing;
  observing.any =
    metrics && tracing
      ? {
          request: (...a) => (metrics.request(...a), tracing.request(...a)),
          served: (...a) => (metrics.served(...a), tracing.served(...a)),
          span: tracing.span,
          delivery: (...a) => (metrics.delivery(...a), tracing.delivery(...a)),
          job: (job, run) => tracing.job({ ...job, run: (r) => metrics.job(job, r) }, run),
          routes: (routes) => tracing.routes?.(routes),
        }
      : (metrics ?? tracing);
}
