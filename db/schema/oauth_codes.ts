import { id, index, table, text, timestamp, uniqueIndex, ref } from '../dialect';

/** Authorization codes: single use, ten minutes, stored as their SHA-256, bound to PKCE and the redirect. */
export const oauthCodes = table(
  'oauth_codes',
  {
    id: id(),
    account_id: ref().notNull(),
    grant_id: ref().notNull(),
    code_hash: text().notNull(),
    redirect_uri: text().notNull(),
    code_challenge: text().notNull(),
    expires_at: timestamp().notNull(),
    used_at: timestamp(),
  },
  // expires_at: the sweep reads the oldest first (server/oauth/sweep.ts).
  (t) => [
    uniqueIndex('oauth_codes_hash_uq').on(t.account_id, t.code_hash),
    index('oauth_codes_expires_idx').on(t.expires_at),
  ],
);
