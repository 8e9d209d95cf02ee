/**
 * What the gateway answers: a status, a body and headers, written in one writeHead, and sent with the
 * other answers of the event loop's turn (endSoon).
 */
import type { ServerResponse } from 'node:http';
import { ApiError } from '../errors';
import type { RateDecision } from './ratelimit';

export interface Outcome {
  status: number;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

/**
 * One writeHead with every header: cheaper than setHeader per header on the hot path. `base` are headers
 * every answer of the caller carries (the gateway's security headers).
 */
export function send(
  res: ServerResponse,
  outcome: Outcome,
  requestId: string,
  rate: RateDecision | null,
  base?: Readonly<Record<string, string>>,
): void {
  const headers: Record<string, string> = { 'X-Request-Id': requestId, 'Cache-Control': 'no-store' };
  // Object.assign, not a spread into the literal: that measured 4.4 µs a call against 0.1 µs.
  if (base) Object.assign(headers, base);
  if (rate) addRateHeaders(headers, rate);
  // A string body goes out with the head in one write; a Buffer would be a second chunk (writev).
  const body = outcome.body;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json; charset=utf-8';
    headers['Content-Length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  }
  // The head now, so a header node refuses throws here, to the caller; the bytes with the turn's others.
  res.writeHead(outcome.status, Object.assign(headers, outcome.headers));
  endSoon(res, body);
}

/**
 * Answers finished in one turn of the event loop leave together, once the turn has read every request
 * that was ready (setImmediate runs after the poll phase). One after another, each answer's write woke
 * the client anew (measured on a GET /ping: 6.8 µs of kernel time a request in the wake-ups alone, bare
 * node:http 1.0); sent in a burst, a client still reading the first takes the rest without sleeping.
 * An answer waits at most for the rest of its turn, work the process did before anyway (decision 255).
 */
let ending: [ServerResponse, string | Buffer | undefined][] = [];
function endSoon(res: ServerResponse, body: string | Buffer | undefined): void {
  if (ending.push([res, body]) === 1) setImmediate(endAll);
}
function endAll(): void {
  const batch = ending;
  ending = [];
  for (const [res, body] of batch) {
    try {
      res.end(body);
    } catch {
      // Nothing written can be taken back: the connection ends with what it has.
      res.destroy();
    }
  }
}

/** A budget's headers, added to `headers`: every answer that took from a budget shows what is left. */
export function addRateHeaders(headers: Record<string, string>, rate: RateDecision): Record<string, string> {
  headers['X-RateLimit-Limit'] = String(rate.limit);
  headers['X-RateLimit-Remaining'] = String(rate.remaining);
  return headers;
}

export function errorOutcome(error: ApiError): Outcome {
  const headers: Record<string, string> = {};
  if (error.status === 401) headers['WWW-Authenticate'] = 'Bearer realm="clinic-api"';
  // The request may still be streaming a body we stopped waiting for: end the connection with it.
  if (error.code === 'request_timeout') headers.Connection = 'close';
  return { status: error.status, body: JSON.stringify(error.toBody()), headers: Object.assign(headers, error.headers) };
}

export function binaryOutcome(file: { content_type: string; file_name: string; bytes: Buffer }): Outcome {
  const ascii = file.file_name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return {
    status: 200,
    body: file.bytes,
    headers: {
      'Content-Type': file.content_type,
      'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.file_name)}`,
      'X-Content-Type-Options': 'nosniff',
    },
  };
}

export const timeoutError = (ms: number) =>
  new ApiError(
    'request_timeout',
    `No answer within ${ms} ms; retry with backoff (an Idempotency-Key makes a retried POST safe)`,
  );

export const rateLimited = (rate: RateDecision) =>
  new ApiError(
    'rate_limited',
    `Rate limit of ${rate.limit} requests per minute exceeded; retry after ${rate.retryAfter} s`,
    undefined,
    { headers: { 'Retry-After': String(rate.retryAfter) } },
  );
