import { id, index, table, text, timestamp, uniqueIndex, ref } from '../dialect';

/**
 * Access and refresh tokens (opaque, SHA-256 stored). A refresh token is used once: its use issues the
 * next pair and marks it used; presenting a used one again revokes the grant (reuse detection).
 */
export const oauthTokens = table(
  'oauth_tokens',
  {
    id: id(),
    account_id: ref().notNull(),
    grant_id: ref().notNull(),
    kind: text<'access' | 'refresh'>().notNull(),
    token_hash: text().notNull(),
    expires_at: timestamp().notNull(),
    used_at: timestamp(),
    created_at: timestamp().notNull(),
  },
  // expires_at: the sweep reads the oldest first (server/oauth/sweep.ts).
  (t) => [
    uniqueIndex('oauth_tokens_hash_uq').on(t.account_id, t.token_hash),
    index('oauth_tokens_grant_idx').on(t.account_id, t.grant_id),
    index('oauth_tokens_expires_idx').on(t.expires_at),
  ],
);
