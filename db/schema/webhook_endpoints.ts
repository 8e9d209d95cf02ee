import { bool, id, index, json, table, text, timestamp, ref } from '../dialect';

/**
 * Webhook endpoints of an account. The signing secret must be readable to sign, so it is stored
 * encrypted (AES-256-GCM, server/auth/secrets.ts), never in the clear; during a rotation's grace
 * the previous one signs too. `failing_since`: the first failed delivery of an unbroken failing streak.
 */
export const webhookEndpoints = table(
  'webhook_endpoints',
  {
    id: id(),
    account_id: ref().notNull(),
    url: text().notNull(),
    description: text(),
    /** null: every event type. */
    event_types: json<string[] | null>(),
    enabled: bool().notNull(),
    disabled_reason: text(),
    secret: text().notNull(),
    previous_secret: text(),
    previous_expires_at: timestamp(),
    failing_since: timestamp(),
    created_at: timestamp().notNull(),
    updated_at: timestamp().notNull(),
  },
  (t) => [index('webhook_endpoints_account_idx').on(t.account_id, t.enabled)],
);
