/**
 * The request log as the portal reads it: newest first (created_at, then id), a page at a time with a
 * keyset cursor, filtered by key, status class, method, path prefix, request id and days in the
 * clinic's zone; and one request by its id.
 *
 * Indexes (db/schema/request_log.ts), each led by account_id: (account_id, created_at, id) yields the
 * order and bounds the days; (account_id, api_key_id, created_at, id) the same for one key. A request
 * id needs no index of its own: ours are UUIDv7, whose first 48 bits are the request's arrival in
 * milliseconds, and its row is stamped when it was answered, so the time index bounds the search to
 * the minutes after that arrival (a third index cost a sixth of every row's write: docs/decisions.md,
 * "What logging costs"). Status, method, path and request id are checked on the rows read in order
 * from the first (server/test/portal.requests.test.ts shows the plans).
 */
import { inCalendar } from '../values/calendar';
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { apiKeys, requestLog, type KeyAccess } from '../../db/schema';
import { describeAccess, permissionsOf } from '../auth/key-groups';
import { addDays, clockFor } from '../values/wall-time';

/** The gateway's API_PREFIX, which every logged path starts with (imported, it would close a cycle through the routers). */
const API_PREFIX = '/v3/api';

export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];
/** The methods a client sends (the gateway logs the method as sent; HEAD is answered as GET). */
export const REQUEST_METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS'] as const;
export type RequestMethod = (typeof REQUEST_METHODS)[number];

/** A page's place: the created_at and id of the last row shown (`2026-11-26T20:31:05.123Z_1234`). */
export const CURSOR = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)_(\d{1,10})$/;

export interface RequestQuery {
  keyId?: number;
  statusClass?: StatusClass;
  method?: RequestMethod;
  /** Path prefix, below /v3/api (e.g. /patients); a pasted /v3/api/... works too. */
  path?: string;
  /** An X-Request-Id, exactly. */
  requestId?: string;
  /** Calendar days (YYYY-MM-DD) in the clinic's zone, both included. */
  from?: string;
  to?: string;
  /** A CURSOR: rows after it in the order. */
  before?: string;
  limit: number;
}

/**
 * How long after its arrival a request's row can be stamped: its answer, which the request timeout
 * bounds (REQUEST_TIMEOUT_MS, 30 s by default). A request answered later than this is found by its day.
 */
export const ANSWERED_WITHIN_MS = 5 * 60_000;
const UUID_V7 = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The arrival time (ms) in one of our X-Request-Ids; null for anything else, which names no request of ours. */
export function arrivalOf(requestId: string): number | null {
  const m = UUID_V7.exec(requestId);
  const ms = m ? parseInt(m[1] + m[2], 16) : null;
  // A forged id can name any of 2^48 ms (year 10889): one outside the calendar names no request.
  return ms !== null && inCalendar(ms) ? ms : null;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

type Row = typeof requestLog.$inferSelect;

type KeyOfRow = { name: string | null; access: KeyAccess | null; permissions: unknown };

function shown(row: Row, k: KeyOfRow | null) {
  return {
    id: row.id,
    method: row.method,
    path: row.path,
    /** Values of personal kinds redacted (server/rest/request-log.ts); null when there was none. */
    query: row.query,
    status: row.status,
    error: row.error_code === null ? null : { code: row.error_code, message: row.error_message },
    duration_ms: row.duration_ms,
    request_id: row.request_id,
    client_ip: row.client_ip,
    /** The key, with what it may do (read & write, read only, or a restricted key's groups). */
    key:
      row.api_key_id === null
        ? null
        : {
            id: row.api_key_id,
            name: k?.name ?? null,
            access: k?.access
              ? describeAccess(k.access, k.access === 'restricted' ? permissionsOf(k.permissions) : null)
              : null,
          },
    created_at: row.created_at,
  };
}

export type LoggedRequest = ReturnType<typeof shown>;

const withKeyName = (db: Db) =>
  db
    .select({
      row: requestLog,
      key: { name: apiKeys.name, access: apiKeys.access, permissions: apiKeys.permissions },
    })
    .from(requestLog)
    .leftJoin(apiKeys, and(eq(apiKeys.account_id, requestLog.account_id), eq(apiKeys.id, requestLog.api_key_id)));

export async function listRequests(db: Db, accountId: number, zone: string, q: RequestQuery) {
  const t = requestLog;
  const where: (SQL | undefined)[] = [eq(t.account_id, accountId)];
  if (q.keyId !== undefined) where.push(eq(t.api_key_id, q.keyId));
  if (q.statusClass) {
    const base = Number(q.statusClass[0]) * 100;
    where.push(gte(t.status, base), lt(t.status, base + 100));
  }
  if (q.method) where.push(eq(t.method, q.method));
  if (q.path) {
    const below = q.path.startsWith(API_PREFIX) ? q.path.slice(API_PREFIX.length) : q.path;
    const prefix = `${API_PREFIX}${below.startsWith('/') ? below : `/${below}`}`;
    where.push(sql`${t.path} like ${`${escapeLike(prefix)}%`} escape '\\'`);
  }
  if (q.requestId) {
    const arrived = arrivalOf(q.requestId);
    if (arrived === null) return { data: [], next_before: null };
    where.push(
      eq(t.request_id, q.requestId),
      gte(t.created_at, new Date(arrived).toISOString()),
      lt(t.created_at, new Date(arrived + ANSWERED_WITHIN_MS).toISOString()),
    );
  }
  if (q.from || q.to) {
    const clock = clockFor(zone);
    const dayStart = (day: string) => new Date(clock.toUtcLenient(`${day}T00:00:00`)).toISOString();
    if (q.from) where.push(gte(t.created_at, dayStart(q.from)));
    if (q.to) where.push(lt(t.created_at, dayStart(addDays(q.to, 1))));
  }
  const cursor = q.before ? CURSOR.exec(q.before) : null;
  if (cursor) where.push(sql`(${t.created_at}, ${t.id}) < (${cursor[1]}, ${Number(cursor[2])})`);
  const rows = await withKeyName(db)
    .where(and(...where))
    .orderBy(desc(t.created_at), desc(t.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1]?.row;
  return {
    data: page.map(({ row, key }) => shown(row, key)),
    next_before: rows.length > q.limit ? `${last.created_at}_${last.id}` : null,
  };
}

/** One logged request of the account, or null. */
export async function getRequest(db: Db, accountId: number, id: number): Promise<LoggedRequest | null> {
  const [found] = await withKeyName(db)
    .where(and(eq(requestLog.account_id, accountId), eq(requestLog.id, id)))
    .limit(1);
  return found ? shown(found.row, found.key) : null;
}
