import createClient, { type Client } from 'openapi-fetch';
import { retryingFetch, type Fetch, type RetryOptions } from './retry';
import type { paths } from './schema';

export type ClinicClient = Client<paths>;

export interface ClinicClientOptions {
  /** The clinic's API root: `https://{clinic}.{region}.<domain>/v3/api`. */
  baseUrl: string;
  /** An API key (Developers → API Keys), sent as `Authorization: Bearer …`. */
  apiKey: string;
  /** The fetch to send with (default: the global one). */
  fetch?: Fetch;
  /** Retries on 429 and 503 (see RetryOptions); `false` sends every request once. */
  retry?: RetryOptions | false;
  /**
   * A fresh Idempotency-Key (a UUID) on every POST, PUT, PATCH and DELETE that has none, kept across
   * its retries (default true). Pass your own per call with `headers: { 'Idempotency-Key': … }`.
   */
  idempotencyKeys?: boolean;
}

/**
 * The Clinic API as an openapi-fetch client: `client.GET('/patients', { params: { query } })`, every
 * path, parameter, body and answer typed from the OpenAPI document.
 */
export function createClinicClient(options: ClinicClientOptions): ClinicClient {
  const fetch: Fetch = options.fetch ?? ((request) => globalThis.fetch(request));
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(fetch, {
      ...(options.retry === false ? { maxAttempts: 1 } : options.retry),
      idempotencyKeys: options.idempotencyKeys ?? true,
    }),
  });
}
