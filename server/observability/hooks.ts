/**
 * What the hot paths call into for metrics and traces: null unless METRICS_PORT or
 * OTEL_EXPORTER_OTLP_ENDPOINT switched them on at start-up (./metrics.ts, ./tracing.ts fill them in).
 * With both off a request pays for one property read, and prom-client and the OpenTelemetry SDK are
 * never loaded.
 */
import type { Job, JobResult, JobRun } from '../jobs/scheduler';
import type { Route } from '../rest/routes';

/** A webhook attempt's result: 2xx, to be retried, or given up (410, or the retry schedule spent). */
export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed';

export interface Observer {
  /**
   * A REST request answered: its route template below /v3/api (undefined: no route matched), the path
   * as sent (only to tell /openapi.json apart; never recorded), status, duration, whether a key was
   * accepted, and the request id.
   */
  request(route: string | undefined, method: string | undefined, path: string, status: number, ms: number, authenticated: boolean, requestId: string): void;
  /** A webhook attempt recorded: its outcome, when its message fell due, when the attempt started. */
  delivery(outcome: DeliveryOutcome, dueAt: string | null, startedAt: number): void;
  /** Runs a periodic job, observed. */
  job(job: Job, run: JobRun): Promise<JobResult>;
  /** Once, when the gateway is built: may wrap each route's procedure call (a span per procedure). */
  routes?(routes: Route[]): void;
}

export const observing: { metrics: Observer | null; tracing: Observer | null; any: Observer | null } = { metrics: null, tracing: null, any: null };

/** Sets `any` to whichever observers are on (both: each in turn). */
export function combine(): void {
  const { metrics, tracing } = observing;
  observing.any =
    metrics && tracing
      ? {
          request: (...a) => (metrics.request(...a), tracing.request(...a)),
          delivery: (...a) => (metrics.delivery(...a), tracing.delivery(...a)),
          job: (job, run) => tracing.job({ ...job, run: (r) => metrics.job(job, r) }, run),
          routes: (routes) => tracing.routes?.(routes),
        }
      : (metrics ?? tracing);
}
