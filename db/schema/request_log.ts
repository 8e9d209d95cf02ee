import { id, index, int, table, text, timestamp } from '../dialect';

/**
 * REST requests per integration, for the portal's request log: written in batches off the request path
 * (server/rest/request-log.ts), kept 90 days.
 */
export const requestLog = table(
  'request_log',
  {
    id: id(),
    account_id: int().notNull(),
    api_key_id: int(),
    method: text().notNull(),
    path: text().notNull(),
    status: int().notNull(),
    duration_ms: int().notNull(),
    request_id: text().notNull(),
    created_at: timestamp().notNull(),
  },
  // No index on created_at: every insert would maintain it, and the hourly sweep does without (it looks
  // at the oldest rows by id; server/rest/request-log.ts).
  (t) => [index('request_log_account_idx').on(t.account_id, t.id), index('request_log_key_idx').on(t.account_id, t.api_key_id, t.id)],
);
