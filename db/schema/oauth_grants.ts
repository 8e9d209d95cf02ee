import { id, index, table, text, timestamp, ref } from '../dialect';

/**
 * A connector: one member's approval of one client. Its codes and tokens act as that member; revoking
 * the grant (portal, a replayed refresh token, a reused code) ends every token it issued at once.
 */
export const oauthGrants = table(
  'oauth_grants',
  {
    id: id(),
    account_id: ref().notNull(),
    client_id: text().notNull(),
    user_id: ref().notNull(),
    scope: text().notNull(),
    resource: text().notNull(),
    created_at: timestamp().notNull(),
    last_used_at: timestamp(),
    revoked_at: timestamp(),
    revoked_reason: text(),
  },
  (t) => [
    index('oauth_grants_account_idx').on(t.account_id, t.revoked_at, t.id),
    index('oauth_grants_user_idx').on(t.account_id, t.user_id),
    // "Has anyone here approved this client" (authorize's error redirects) and the sweep of unused clients.
    index('oauth_grants_client_idx').on(t.account_id, t.client_id),
  ],
);
