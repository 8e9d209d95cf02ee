import { id, index, int, isPg, table, text, timestamp, ref } from '../dialect';

/**
 * REST requests per integration, for the portal's request log: written in batches off the request path
 * (server/rest/request-log.ts), kept 90 days. No bodies: the query is stored with its personal values
 * redacted, and an error answer keeps only its `code` and `message` (docs/decisions.md, "What the
 * request log keeps").
 */
export const requestLog = table(
  'request_log',
  {
    id: id(),
    account_id: ref().notNull(),
    api_key_id: ref(),
    method: text().notNull(),
    /** The path, without the query string. */
    path: text().notNull(),
    /** The query string (no `?`), values redacted but those of closed kinds; null when there was none. */
    query: text(),
    status: int().notNull(),
    /** The `code` and `message` of an error answer (status 400 and above); null otherwise. */
    error_code: text(),
    error_message: text(),
    duration_ms: int().notNull(),
    /** The X-Request-Id answered: UUIDv7, whose time (the arrival) bounds its search (server/domain/request_log.ts). */
    request_id: text().notNull(),
    /** The client's address as the rate limiter sees it (TRUST_PROXY). */
    client_ip: text(),
    created_at: timestamp().notNull(),
  },
  // Every portal filter is served by an index led by account_id, and the list's order (newest first:
  // created_at, id) by the first; both grow at one end as requests come in. No index on created_at
  // alone: the hourly sweep looks at the oldest rows by id (SQLite's rowid; on PostgreSQL, whose key is
  // (account_id, id), request_log_sweep_idx).
  (t) => [
    ...(isPg ? [index('request_log_sweep_idx').on(t.id)] : []),
    index('request_log_account_time_idx').on(t.account_id, t.created_at, t.id),
    index('request_log_key_time_idx').on(t.account_id, t.api_key_id, t.created_at, t.id),
  ],
  { partitionedBy: 'created_at' },
);
