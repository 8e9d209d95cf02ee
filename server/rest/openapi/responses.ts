/**
 * The error responses of an operation: every status the gateway can answer it with, each with the
 * codes it carries. Which statuses apply follows from what the route is (a key needed, a write, a body,
 * an Idempotency-Key taken); the domain's codes are the ones the operation's rules state ("409
 * billing_rule", "422 location_not_found, practitioner_not_found"), read from that text so the rule a
 * client reads and the codes the document lists are one statement.
 */
import { ERROR_STATUS, type ErrorCode } from '../../errors';
import type { Route } from '../routes';
import { ERROR_MODEL } from './names';
import type { Json } from './operation';

const header = (description: string, type = 'string') => ({ description, schema: { type } });

/** Response headers, as components. */
export const HEADERS: Json = {
  RequestId: header('Unique id of this request; quote it when reporting a problem'),
  RateLimitLimit: header('Requests allowed per minute in this bucket', 'integer'),
  RateLimitRemaining: header('Requests left in the current minute', 'integer'),
  RetryAfter: header('Seconds until the bucket has room', 'integer'),
  WWWAuthenticate: header('Bearer'),
  IdempotentReplayed: header('true when this response replays an earlier request with the same Idempotency-Key'),
};
export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** The headers every response carries. */
export const commonHeaders = (): Json => ({
  'X-Request-Id': headerRef('RequestId'),
  'X-RateLimit-Limit': headerRef('RateLimitLimit'),
  'X-RateLimit-Remaining': headerRef('RateLimitRemaining'),
});

/** What each error status means, whatever the operation, and its extra headers. */
const STATUSES: Record<number, { summary: string; headers?: Json }> = {
  401: {
    summary: 'No, invalid, expired or revoked API key',
    headers: { 'WWW-Authenticate': headerRef('WWWAuthenticate') },
  },
  403: { summary: 'A read-only key on a write; nothing is read or written' },
  404: { summary: 'No clinic at this host' },
  409: { summary: 'Refused by a business rule, or another request with this Idempotency-Key is still in flight' },
  413: { summary: 'The body is over the size limit' },
  415: { summary: 'The body is not JSON (an upload: not multipart/form-data)' },
  421: { summary: "A clinic host of a region this deployment does not serve: use that region's host" },
  422: { summary: 'The input is invalid: `errors` names each attribute (or parameter) and its problems' },
  429: {
    summary: 'Rate limit exceeded; retry after Retry-After seconds',
    headers: { 'Retry-After': headerRef('RetryAfter') },
  },
  500: { summary: 'Server error; retry with backoff' },
  503: {
    summary:
      'No answer within REQUEST_TIMEOUT_MS; the connection is closed. Retry with backoff (a POST with the same Idempotency-Key is safe to retry)',
  },
};

/** A status a path parameter can give: the record (or resource name) it names is not there. */
const BY_PATH_404 = 'Nothing at this path on this account (an unknown id or name), or no clinic at this host';

const CODE_LIST = /\b([45]\d\d) ([a-z][a-z_]*(?:, [a-z][a-z_]*)*)/g;

/** The (status, code) pairs a text states: "409 billing_rule", "422 a_not_found, b_not_found". */
export function statedCodes(text: string): [number, ErrorCode][] {
  const out: [number, ErrorCode][] = [];
  for (const [, status, list] of text.matchAll(CODE_LIST)) {
    for (const word of list.split(', '))
      if (Object.hasOwn(ERROR_STATUS, word)) out.push([Number(status), word as ErrorCode]);
  }
  return out;
}

export type ErrorCodes = Map<number, Set<ErrorCode>>;

/**
 * The error statuses of a route and the codes of each. `rules`: for an operation that applies domain
 * rules (a write, the availability search), the text stating them; such an operation may also refuse
 * input it cannot use (`invalid_input`).
 */
export function errorCodes(
  route: Pick<Route, 'protect' | 'type' | 'method' | 'multipart'>,
  rules?: string,
): ErrorCodes {
  const codes: ErrorCodes = new Map();
  const add = (status: number, code: ErrorCode) =>
    (codes.get(status) ?? codes.set(status, new Set()).get(status)!).add(code);
  // Any route: an unknown clinic host, a region served elsewhere, an unknown parameter, the budget, a fault, the deadline.
  for (const code of [
    'not_found',
    'wrong_region',
    'validation_failed',
    'rate_limited',
    'internal_error',
    'request_timeout',
  ] as const)
    add(ERROR_STATUS[code], code);
  if (route.protect) add(401, 'unauthenticated');
  // A key outside its allowed networks, or a restricted key without the route's group (server/rest/key-guard.ts).
  if (route.protect) add(403, 'forbidden');
  if (route.type === 'mutation') add(403, 'key_read_only');
  if (route.method === 'POST' || route.method === 'PATCH') {
    // An upload over FILE_MAX_BYTES is a 422 naming file (server/rest/multipart.ts); a JSON body over MAX_BODY_BYTES a 413.
    if (!route.multipart) add(413, 'payload_too_large');
    add(415, 'unsupported_media_type');
  }
  if (route.method === 'POST' && route.protect) {
    add(409, 'idempotency_key_in_flight');
    add(422, 'idempotency_key_invalid');
    add(422, 'idempotency_key_reused');
  }
  if (rules !== undefined) {
    add(422, 'invalid_input');
    for (const [status, code] of statedCodes(rules)) add(status, code);
  }
  return new Map([...codes].sort(([a], [b]) => a - b));
}

/** Error responses every operation that has them shares, by status: components.responses, each with its one code. */
const SHARED: Record<number, { name: string; code: ErrorCode }> = {
  401: { name: 'Unauthenticated', code: 'unauthenticated' },
  403: { name: 'Forbidden', code: 'forbidden' },
  404: { name: 'NotFound', code: 'not_found' },
  413: { name: 'PayloadTooLarge', code: 'payload_too_large' },
  415: { name: 'UnsupportedMediaType', code: 'unsupported_media_type' },
  421: { name: 'WrongRegion', code: 'wrong_region' },
  422: { name: 'InvalidInput', code: 'validation_failed' },
  429: { name: 'RateLimited', code: 'rate_limited' },
  500: { name: 'InternalError', code: 'internal_error' },
  503: { name: 'Timeout', code: 'request_timeout' },
};

function errorResponse(status: number, codes: Iterable<ErrorCode>, summary = STATUSES[status].summary): Json {
  return {
    description: `${summary}. Codes: ${[...codes].map((c) => `\`${c}\``).join(', ')}.`,
    headers: { ...commonHeaders(), ...(STATUSES[status].headers ?? {}) },
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_MODEL}` } } },
  };
}

export const sharedResponses = (): Json =>
  Object.fromEntries(
    Object.entries(SHARED).map(([status, { name, code }]) => [name, errorResponse(Number(status), [code])]),
  );

/**
 * The error responses of an operation: the shared one where a status carries nothing but its usual
 * code, else the operation's own, listing its codes. `byPath`: a path parameter names a record.
 */
export function errorResponses(codes: ErrorCodes, byPath: boolean): Json {
  const out: Json = {};
  for (const [status, set] of codes) {
    const shared = SHARED[status];
    if (status === 404 && byPath) out[status] = errorResponse(status, set, BY_PATH_404);
    else if (shared && set.size === 1 && set.has(shared.code))
      out[status] = { $ref: `#/components/responses/${shared.name}` };
    else out[status] = errorResponse(status, set, status === 409 ? conflict(set) : undefined);
  }
  return out;
}

/** 409 says which of its causes the operation has. */
function conflict(codes: Set<ErrorCode>): string {
  const rules = [...codes].some((c) => c !== 'idempotency_key_in_flight');
  if (!codes.has('idempotency_key_in_flight')) return 'Refused by a business rule';
  return rules ? STATUSES[409].summary : 'Another request with this Idempotency-Key is still in flight';
}
