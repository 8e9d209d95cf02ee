/**
 * The one error type of the API. Every failure that reaches a client is an ApiError (or is turned into
 * one by server/rest/errors.ts), and its status comes from this table, never from the call site.
 */
export const ERROR_STATUS = {
  /** A request node's HTTP parser refuses (server/client-error.ts). */
  bad_request: 400,
  unauthenticated: 401,
  user_inactive: 401,
  key_read_only: 403,
  connector_not_permitted: 403,
  /** An OAuth token without the scope the MCP server needs (RFC 6750), with its WWW-Authenticate challenge. */
  insufficient_scope: 403,
  permission_denied: 403,
  /** A restricted key outside its groups or its allowed networks (server/rest/key-guard.ts). */
  forbidden: 403,
  /** A portal write whose Origin is not the portal's own (cross-site request forgery). */
  csrf_failed: 403,
  not_found: 404,
  unsupported_operation: 405,
  method_not_allowed: 405,
  unsupported_media_type: 415,
  /** A clinic host of a region this deployment does not serve (SERVICE_REGIONS): 421 Misdirected Request. */
  wrong_region: 421,
  payload_too_large: 413,
  /** The URL and headers together over node's 16 KB (server/client-error.ts). */
  headers_too_large: 431,
  validation_failed: 422,
  invalid_input: 422,
  patient_not_found: 422,
  location_not_found: 422,
  practitioner_not_found: 422,
  appointment_type_not_found: 422,
  referral_source_not_found: 422,
  resource_unavailable: 422,
  not_online_bookable: 422,
  availability_not_configured: 422,
  payment_method_unavailable: 422,
  card_payment_not_allowed: 422,
  referral_source_incomplete: 422,
  file_type_not_allowed: 422,
  patient_log_mismatch: 422,
  idempotency_key_invalid: 422,
  idempotency_key_reused: 422,
  idempotency_key_in_flight: 409,
  appointment_rule: 409,
  slot_unavailable: 409,
  group_full: 409,
  billing_rule: 409,
  file_store_failed: 409,
  file_delete_failed: 409,
  allocation_remove_failed: 409,
  tag_locked: 409,
  conflict: 409,
  rate_limited: 429,
  internal_error: 500,
  request_timeout: 503,
  /** GET /readyz: the database is unreachable or lacks migrations of this build (server/health.ts). */
  not_ready: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type FieldErrors = Record<string, string[]>;

/**
 * An empty error map. Attribute names come from client input and may be `__proto__`, `constructor` or
 * `toString`: on a plain object `(out[name] ??= []).push(...)` would reach Object.prototype and throw
 * inside the error path itself. A null-prototype object has no such members.
 */
export const fieldErrors = (): FieldErrors => Object.create(null) as FieldErrors;

/** Adds a message under an attribute of an error map made by fieldErrors(). */
export function addFieldError(errors: FieldErrors, attribute: string, message: string): void {
  (errors[attribute] ??= []).push(message);
}

export interface ApiErrorOptions {
  /** Overrides the table for the few codes the spec gives two statuses (billing_rule: 409 or 422). */
  status?: number;
  /** Response headers the error comes with (Retry-After, Allow). */
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly headers?: Record<string, string>;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldErrors,
    options: ApiErrorOptions = {},
  ) {
    super(message);
    this.status = options.status ?? ERROR_STATUS[code];
    this.headers = options.headers;
  }

  toBody(): { message: string; code: ErrorCode; errors?: FieldErrors } {
    return this.errors
      ? { message: this.message, code: this.code, errors: this.errors }
      : { message: this.message, code: this.code };
  }
}

export const notFound = (what = 'Record') => new ApiError('not_found', `${what} not found`);

/** A 422 naming one attribute (the overall message defaults to the attribute's). */
export const invalid = (attribute: string, message: string, code: ErrorCode = 'validation_failed', summary = message) =>
  new ApiError(code, summary, { [attribute]: [message] });
