import { id, index, int, json, table, text, timestamp, ref } from '../dialect';

export type AttemptTrigger = 'scheduled' | 'manual' | 'test';

/** Every delivery attempt: when, why, what came back. Kept 30 days. */
export const webhookAttempts = table(
  'webhook_attempts',
  {
    id: id(),
    account_id: ref().notNull(),
    endpoint_id: ref().notNull(),
    message_id: ref().notNull(),
    trigger: text<AttemptTrigger>().notNull(),
    status_code: int(),
    duration_ms: int().notNull(),
    /** The first KB of the response body. */
    response_body: text(),
    /** timeout, dns, refused, tls, blocked (SSRF), or another network error. */
    error: text(),
    /**
     * The headers this attempt sent (webhook-id, webhook-timestamp, webhook-signature, ...): the timestamp
     * is the attempt's own and the signature depends on the secrets live then, so neither can be rebuilt
     * later. A signature is no secret (the receiver got it); the secret itself is never here. Null for
     * attempts made before it was kept.
     */
    request_headers: json<Record<string, string>>(),
    created_at: timestamp().notNull(),
  },
  (t) => [
    index('webhook_attempts_message_idx').on(t.account_id, t.message_id, t.id),
    index('webhook_attempts_created_idx').on(t.created_at),
    // An endpoint's delivery chart (24 h / 7 d) and its last delivery, without reading other endpoints' attempts.
    index('webhook_attempts_endpoint_idx').on(t.account_id, t.endpoint_id, t.created_at),
  ],
  { partitionedBy: 'created_at' },
);
