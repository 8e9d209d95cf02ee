import { id, index, table, text, timestamp, uniqueIndex, ref } from '../dialect';

export const SESSION_STAGES = ['signed_in', 'second_factor', 'enrol'] as const;
export type SessionStage = (typeof SESSION_STAGES)[number];

/**
 * Portal sessions. Only the SHA-256 of the cookie's token is stored. A session ends at `expires_at`
 * (absolute), after the idle window since `last_seen_at`, on sign-out, or when its member is deactivated.
 * `stage` is `signed_in` once the member has passed every step; before that the session opens only the
 * next step: `second_factor` (a code, a passkey or a recovery code) or `enrol` (setting up two-factor
 * sign-in the clinic requires). `challenge` is the pending WebAuthn challenge of the session.
 */
export const sessions = table(
  'sessions',
  {
    id: id(),
    account_id: ref().notNull(),
    user_id: ref().notNull(),
    token_hash: text().notNull(),
    ip: text(),
    user_agent: text(),
    stage: text<SessionStage>().notNull().default('signed_in'),
    challenge: text(),
    created_at: timestamp().notNull(),
    last_seen_at: timestamp().notNull(),
    expires_at: timestamp().notNull(),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_uq').on(t.account_id, t.token_hash),
    index('sessions_user_idx').on(t.account_id, t.user_id),
  ],
);
