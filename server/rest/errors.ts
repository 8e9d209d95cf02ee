/** Turns anything thrown on the request path into our `{ message, code, errors? }`. */
import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { ApiError, addFieldError, fieldErrors, type FieldErrors } from '../errors';

/** The JSON 500: says nothing of the cause. */
export const internalError = () => new ApiError('internal_error', 'Internal server error; retry with backoff');

function zodErrors(err: ZodError): FieldErrors {
  const out = fieldErrors();
  for (const issue of err.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) addFieldError(out, [...issue.path, k].join('.'), 'is not a known attribute');
      continue;
    }
    addFieldError(out, issue.path.length ? issue.path.join('.') : 'body', issue.message);
  }
  return out;
}

function findCause(err: unknown): unknown {
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur; i++) {
    if (cur instanceof ApiError || cur instanceof ZodError) return cur;
    const issues = (cur as { issues?: unknown }).issues;
    if (Array.isArray(issues) && (cur as Error).name === 'SchemaError') return new ZodError(issues as never);
    cur = (cur as { cause?: unknown }).cause;
  }
  return err;
}

/** Never throws: a failure while mapping an error is itself the internal error. */
export function toApiError(err: unknown): { error: ApiError; internal: boolean } {
  try {
    return mapError(err);
  } catch {
    return { error: internalError(), internal: true };
  }
}

/** tRPC's own refusals (the portal's transport: malformed JSON, unknown procedure, wrong method). */
const TRPC_REFUSALS: Partial<Record<TRPCError['code'], () => ApiError>> = {
  PARSE_ERROR: () => new ApiError('validation_failed', 'The request body is not valid JSON'),
  BAD_REQUEST: () => new ApiError('validation_failed', 'The request is malformed'),
  NOT_FOUND: () => new ApiError('not_found', 'No such procedure'),
  METHOD_NOT_SUPPORTED: () => new ApiError('method_not_allowed', 'Queries are GET and mutations POST'),
  PAYLOAD_TOO_LARGE: () => new ApiError('payload_too_large', 'The request body is too large'),
  UNSUPPORTED_MEDIA_TYPE: () =>
    new ApiError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json'),
  UNPROCESSABLE_CONTENT: () => new ApiError('validation_failed', 'The request is malformed'),
};

function mapError(err: unknown): { error: ApiError; internal: boolean } {
  const cause = findCause(err);
  if (cause instanceof ApiError) return { error: cause, internal: false };
  const refusal = cause instanceof TRPCError ? TRPC_REFUSALS[cause.code] : undefined;
  if (refusal) return { error: refusal(), internal: false };
  if (cause instanceof ZodError) {
    const errors = zodErrors(cause);
    const first = Object.entries(errors)[0];
    return {
      error: new ApiError('validation_failed', first ? `${first[0]}: ${first[1][0]}` : 'Invalid input', errors),
      internal: false,
    };
  }
  const byDatabase = DATABASE_REFUSALS.get(databaseCode(err)?.replace(/^(SQLITE_BUSY)_\w+$/, '$1') ?? '');
  if (byDatabase) return { error: byDatabase(), internal: false };
  return { error: internalError(), internal: true };
}

/**
 * Database errors that are the client's or the clock's doing, not a server fault, by SQLSTATE (or
 * SQLite's code). Each is a safety net behind a rule applied before the query: the statement timeout
 * (just under the request timeout, db/client.ts); numbers past a 32-bit integer column (ids, bigint, are
 * bounded by fields.ts `recordId`); U+0000 in text or jsonb (refused on every input surface,
 * server/values/text.ts). SQLite's writer lock held by another process past busy_timeout (db/client.ts)
 * and a PostgreSQL lock wait past lock_timeout are a busy server, retried by the client like a timeout.
 */
const busy = () =>
  new ApiError('request_timeout', 'The database is busy with other writes; retry with backoff', undefined, {
    headers: { 'Retry-After': '1' },
  });
const nulInText = () => new ApiError('validation_failed', 'Text must not contain the NUL character (\\u0000)');
const DATABASE_REFUSALS = new Map<string, () => ApiError>([
  ['57014', () => new ApiError('request_timeout', 'The request took too long and was stopped; retry with backoff')],
  ['22003', () => new ApiError('validation_failed', 'A number is out of range (ids and integers are 32-bit)')],
  ['22021', nulInText],
  ['22P05', nulInText],
  ['55P03', busy],
  ['SQLITE_BUSY', busy],
]);

/**
 * The SQLSTATE of a database error in the cause chain (node-postgres sets `code` and `severity`), or
 * SQLite's code (better-sqlite3's SqliteError, e.g. SQLITE_BUSY).
 */
export function databaseCode(err: unknown): string | undefined {
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur; i++) {
    const { code, severity, name } = cur as { code?: unknown; severity?: unknown; name?: unknown };
    if (typeof code === 'string' && (typeof severity === 'string' || name === 'SqliteError')) return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}
