import { id, index, json, table, text, timestamp, uniqueIndex, ref } from '../dialect';

/**
 * OAuth clients of one clinic's authorization server: registered (RFC 7591, `POST /v3/oauth2/register`)
 * or known by a Client ID Metadata Document (a URL-shaped client_id, fetched and cached here until
 * `expires_at`). A confidential client's secret is stored as its SHA-256 only.
 */
export const oauthClients = table(
  'oauth_clients',
  {
    id: id(),
    account_id: ref().notNull(),
    client_id: text().notNull(),
    secret_hash: text(),
    name: text().notNull(),
    redirect_uris: json<string[]>().notNull(),
    token_endpoint_auth_method: text<'none' | 'client_secret_post' | 'client_secret_basic'>().notNull(),
    /** 'registered' or 'metadata_document'. */
    kind: text<'registered' | 'metadata_document'>().notNull(),
    /** Until when a metadata document's contents may be used without fetching it again. */
    expires_at: timestamp(),
    created_at: timestamp().notNull(),
  },
  (t) => [
    uniqueIndex('oauth_clients_client_uq').on(t.account_id, t.client_id),
    index('oauth_clients_created_idx').on(t.account_id, t.created_at),
  ],
);
