import { id, index, int, table, text, timestamp } from '../dialect';

export type AttemptTrigger = 'scheduled' | 'manual' | 'test';

/** Every delivery attempt: when, why, what came back. Kept 30 days. */
export const webhookAttempts = table(
  'webhook_attempts',
  {
    id: id(),
    account_id: int().notNull(),
    endpoint_id: int().notNull(),
    message_id: int().notNull(),
    trigger: text<AttemptTrigger>().notNull(),
    status_code: int(),
    duration_ms: int().notNull(),
    /** The first KB of the response body. */
    response_body: text(),
    /** timeout, dns, refused, tls, blocked (SSRF), or another network error. */
    error: text(),
    created_at: timestamp().notNull(),
  },
  (t) => [index('webhook_attempts_message_idx').on(t.account_id, t.message_id, t.id), index('webhook_attempts_created_idx').on(t.created_at)],
);
