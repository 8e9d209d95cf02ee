/**
 * The request log behind the portal (spec: requests are logged per integration, kept 90 days). Rows are
 * collected in memory and inserted in batches off the request path: every FLUSH_MS, or at once when a
 * batch is full. Rows older than the retention are swept by a job of the scheduler (server/rest/request-log-sweep.ts).
 *
 * Why five seconds: on SQLite every committed write makes the read connection drop its page cache, and
 * rows kept longer cost the garbage collector more; measured on GET /patients/{id} (npm run bench, the
 * app with and without the log), batches of 500 (one every ~70 ms under load) cost 8–13% of throughput,
 * a batch every 5 s 0–5%.
 *
 * What a row keeps (docs/decisions.md, "What the request log keeps"): method, path, status, duration,
 * key, client address, X-Request-Id, time; the query string with every value redacted except those of
 * closed kinds in the resource's declaration (ids, booleans, enum members, times, amounts) and of the
 * availability search (none of whose parameters names a patient); for an error
 * answer its `code` and `message` (written by the server, they never echo values sent). Never a body:
 * bodies carry patient data. The request path only hands over what it already holds (the raw query, the
 * error body); redaction and parsing happen here, when a batch is written.
 */
import type { z } from 'zod';
import { randomUUID } from 'node:crypto';
import type { DbHandle } from '../../db/client';
import { requestLog } from '../../db/schema';
import { sweepRequestLog } from './request-log-sweep';
import { OPERATORS, RESERVED_PARAMS } from '../list/grammar';
import { RESOURCES } from '../resources';
import { availabilityQuery } from '../resources/availability';
import type { Field } from '../resources/fields';

type Declared = Pick<Field, 'kind' | 'values'>;

export { RETENTION_DAYS } from './request-log-sweep';
export const FLUSH_MS = 5000;
const MAX_BATCH = 50_000;
/** Longest path and query kept (a longer one is cut). */
const MAX_TEXT = 500;
/** What stands for a redacted value. */
export const REDACTED = '***';
/** What stands for a parameter name the API does not document. */
export const UNDOCUMENTED = '(other)';
/** Every documented query parameter name, for paths of no resource (availability, schema, unknown). */
const QUERY_NAMES = new Set([
  ...Object.values(RESOURCES).flatMap((r) => Object.keys(r.filters)),
  ...Object.keys(availabilityQuery.shape),
]);

/**
 * One answered request, as the gateway hands it over: account_id, api_key_id, method, path (no query),
 * the raw query string (no `?`) or null, status, the error body (status >= 400) or null, duration_ms,
 * request_id, client address, created_at.
 */
export type RequestLogRow = [
  number,
  number | null,
  string,
  string,
  string | null,
  number,
  string | null,
  number,
  string,
  string,
  string,
];

const t = requestLog;
const COLUMNS = [
  t.account_id,
  t.api_key_id,
  t.method,
  t.path,
  t.query,
  t.status,
  t.error_code,
  t.error_message,
  t.duration_ms,
  t.request_id,
  t.client_ip,
  t.created_at,
];

/**
 * An X-Request-Id that carries its request's arrival (UUIDv7, RFC 9562: 48 bits of milliseconds, then
 * randomness): the portal finds a request id through the log's time index, within minutes of that
 * arrival, so the log needs no index of request ids (server/domain/request_log.ts).
 */
export function timeOrderedId(ms = Date.now()): string {
  // Ids of the same millisecond share their first half (thousands a second, as timestamp() below).
  if (ms !== idTime.ms) {
    const hex = ms.toString(16).padStart(12, '0');
    idTime = { ms, prefix: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7` };
  }
  return idTime.prefix + randomUUID().slice(15);
}
let idTime = { ms: NaN, prefix: '' };

const clip = (s: string) => (s.length > MAX_TEXT ? s.slice(0, MAX_TEXT) : s);
const INTEGER = /^-?\d{1,12}$/;
const TIME = /^[\dT:.+-]{4,35}Z?$/;
const AMOUNT = /^-?\d{1,12}(\.\d{1,4})?$/;

/** Whether one operand of a filter on `field` may be kept as sent: only values of closed kinds are. */
function closedValue(field: Declared, v: string): boolean {
  switch (field.kind) {
    case 'integer':
      return INTEGER.test(v);
    case 'boolean':
      return v === 'true' || v === 'false';
    case 'enum':
      return field.values?.includes(v) ?? false;
    case 'timestamp':
    case 'walltime':
      return TIME.test(v);
    case 'money':
    case 'decimal':
      return AMOUNT.test(v);
    // string (names, emails, numbers), date (a birth date), object, array, metadata: personal or free text.
    default:
      return false;
  }
}

/** A filter's value, kept when every operand is of a closed kind; its operator is kept either way. */
function filterValue(field: Declared, raw: string): string {
  const colon = raw.indexOf(':');
  const op = colon > 0 ? raw.slice(0, colon) : '';
  const known = (OPERATORS as readonly string[]).includes(op);
  if (!known && (raw === 'null' || raw === 'not-null')) return raw;
  const operand = known ? raw.slice(colon + 1) : raw;
  const safe = operand.split(',').every((v) => closedValue(field, v));
  return safe ? raw : known ? `${op}:${REDACTED}` : REDACTED;
}

/**
 * A value of the availability search kept as sent: every parameter there is closed (ids, calendar days
 * of the search, an enum, a count) and none names a patient, so one its own schema accepts is kept:
 * "why no slots on Friday" is then readable from the log.
 */
function availabilityValue(param: string, value: string): boolean {
  const shape = availabilityQuery.shape as Record<string, z.ZodType>;
  return Object.hasOwn(shape, param) && /^[\w.:-]{1,40}$/.test(value) && shape[param].safeParse(value).success;
}

/**
 * The query string as stored: documented parameter names as sent, any other as (other); values kept only where the resource's
 * declaration makes them closed (see closedValue), `page`/`page_size` when numbers and `sort` when it
 * names the resource's fields; everything else (names, emails, dates of birth, cursors, unknown
 * parameters) becomes ***. `path` is the full path (/v3/api/patients).
 */
export function redactQuery(path: string, search: string): string {
  const name = path.split('/', 4)[3] ?? '';
  const resource = Object.hasOwn(RESOURCES, name) ? RESOURCES[name] : undefined;
  const out: string[] = [];
  for (const [sent, value] of new URLSearchParams(search)) {
    // A name the API does not document is the sender's text (an email as a name): not kept either.
    const documented =
      RESERVED_PARAMS.has(sent) ||
      /^metadata\[[\w.-]{1,64}\]$/.test(sent) ||
      (resource ? Object.hasOwn(resource.filters, sent) : QUERY_NAMES.has(sent));
    const param = documented ? sent : UNDOCUMENTED;
    let kept = REDACTED;
    if (param === 'page' || param === 'page_size') kept = INTEGER.test(value) ? value : REDACTED;
    else if (param === 'sort')
      kept =
        resource && value.split(',').every((s) => Object.hasOwn(resource.fields, s.split(':')[0])) ? value : REDACTED;
    else if (!RESERVED_PARAMS.has(param) && resource && Object.hasOwn(resource.filters, param))
      kept = filterValue(resource.filters[param], value);
    else if (name === 'availability' && availabilityValue(param, value)) kept = value;
    out.push(`${encodeURIComponent(param).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${kept}`);
  }
  return clip(out.join('&'));
}

/** What stands for a path that names no endpoint (an outsider's text is not kept). */
export const UNKNOWN_PATH = '(unknown path)';

/**
 * The path as stored: for a known endpoint, its segments as sent where the template has a literal or the
 * segment is a number (an id), *** elsewhere; for an unknown path, UNKNOWN_PATH under the API's prefix.
 */
export function loggedPath(path: string, template: string | null): string {
  const prefix = path.match(/^\/v3\/api/)?.[0] ?? '';
  if (template === null) return `${prefix}/${UNKNOWN_PATH}`;
  // A template without parameters (/ping, /me) matched only itself: the path is stored as sent.
  if (!template.includes('{') && path.length === prefix.length + template.length && path.endsWith(template))
    return path;
  const want = template.split('/');
  const got = path.slice(prefix.length).split('/');
  if (want.length !== got.length) return `${prefix}/${UNKNOWN_PATH}`;
  return prefix + got.map((seg, i) => (seg === want[i] || /^\d{1,15}$/.test(seg) ? seg : REDACTED)).join('/');
}

/**
 * An error's message as stored: what it quotes ("…", “…”) and the path it names are the request's own
 * text (an unknown attribute, an unknown path), so they become ***.
 */
function scrubbed(message: string, path: string): string {
  const below = path.replace(/^\/v3\/api/, '');
  let out = message.replace(/"[^"]*"/g, `"${REDACTED}"`).replace(/“[^”]*”/g, `“${REDACTED}”`);
  for (const p of [path, below]) if (p.length > 1) out = out.split(p).join(REDACTED);
  return clip(out);
}

/** The `code` and `message` of an error body; nulls when it is not one of ours. */
function errorOf(body: string | null, path: string): [string | null, string | null] {
  if (body === null) return [null, null];
  try {
    const parsed = JSON.parse(body) as { code?: unknown; message?: unknown };
    return [
      typeof parsed.code === 'string' ? parsed.code.slice(0, 100) : null,
      typeof parsed.message === 'string' ? scrubbed(parsed.message, path) : null,
    ];
  } catch {
    return [null, null];
  }
}

/** A handed-over row as stored. */
function stored([account, key, method, path, search, status, errorBody, ms, requestId, ip, at]: RequestLogRow) {
  const [code, message] = errorOf(errorBody, path);
  return [
    account,
    key,
    method,
    clip(path),
    search ? redactQuery(path, search) : null,
    status,
    code,
    message,
    ms,
    requestId,
    ip,
    at,
  ];
}

export class RequestLog {
  private rows: RequestLogRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: DbHandle,
    private readonly now: () => number,
    private readonly onError: (err: unknown) => void,
  ) {}

  private stamp = { ms: NaN, iso: '' };

  /** The current time as stored; requests in the same millisecond share one string (thousands a second). */
  timestamp(): string {
    const ms = this.now();
    if (ms !== this.stamp.ms) this.stamp = { ms, iso: new Date(ms).toISOString() };
    return this.stamp.iso;
  }

  add(row: RequestLogRow): void {
    this.rows.push(row);
    if (this.rows.length >= MAX_BATCH) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Writes what is buffered (one insert per batch). Never throws. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.rows;
    this.rows = [];
    // One flush at a time, in order: a batch never overtakes the one before it.
    this.flushing = this.flushing.then(() => this.write(batch)).catch(this.onError);
    return this.flushing;
  }

  private async write(batch: RequestLogRow[]): Promise<void> {
    if (batch.length) await this.db.appendRows(requestLog, COLUMNS, batch.map(stored));
  }

  /** Removes rows past the retention now, on this log's clock (the job `sweep.request_log` does it hourly). */
  async sweep(): Promise<void> {
    await sweepRequestLog(this.db, this.now());
  }

  close(): Promise<void> {
    return this.flush();
  }
}
