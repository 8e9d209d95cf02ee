/**
 * The fetch under the client: an Idempotency-Key on every write unless the caller chose one, and the
 * same request sent again after a 429 (always safe: the server did nothing) or a 503 / 409
 * idempotency_key_in_flight (safe for reads, and for writes that carry a key: the server replays the
 * first answer instead of writing twice). Waits honour Retry-After up to a cap.
 */

export type Fetch = (input: Request) => Promise<Response>;
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions {
  /** Attempts in all, the first included (default 3; 1 turns retries off). */
  maxAttempts?: number;
  /** The longest single wait in ms (default 60 000): a Retry-After asking for more is returned to the caller instead. */
  maxDelayMs?: number;
  /** The first wait when the answer names none (default 1 000 ms), doubled on each retry. */
  baseDelayMs?: number;
  /** How to wait (tests pass one that records and returns at once). */
  sleep?: Sleep;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Waits `ms`, or rejects with the signal's reason as soon as the request is aborted. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });

/** Seconds or an HTTP date, as ms from now; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function retryingFetch(fetch: Fetch, opts: RetryOptions & { idempotencyKeys: boolean }): Fetch {
  const maxAttempts = Math.max(1, opts.maxAttempts ?? 3);
  const maxDelayMs = opts.maxDelayMs ?? 60_000;
  const baseDelayMs = opts.baseDelayMs ?? 1_000;
  const sleep = opts.sleep ?? defaultSleep;
  return async (request) => {
    // Chosen once, before the first attempt, so every retry of this call carries the same key.
    if (opts.idempotencyKeys && WRITES.has(request.method) && !request.headers.has('idempotency-key'))
      request.headers.set('Idempotency-Key', crypto.randomUUID());
    const replayable = SAFE.has(request.method) || request.headers.has('idempotency-key');
    for (let attempt = 1; ; attempt++) {
      // A clone per attempt: a request's body can be read once.
      const response = await fetch(attempt < maxAttempts ? request.clone() : request);
      if (attempt >= maxAttempts || !(await retryable(response, replayable))) return response;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      const wait = asked ?? Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
      if (wait > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(wait, request.signal);
    }
  };
}

async function retryable(response: Response, replayable: boolean): Promise<boolean> {
  if (response.status === 429) return true;
  if (!replayable) return false;
  if (response.status === 503) return true;
  if (response.status !== 409) return false;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => null);
  return typeof body === 'object' && body !== null && 'code' in body && body.code === 'idempotency_key_in_flight';
}
