/**
 * Imported first by server/main.ts: starts OpenTelemetry before the server's modules load, when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set (./tracing.ts); otherwise loads nothing more.
 */
import { startTracing } from './tracing';

await startTracing()?.ready;
