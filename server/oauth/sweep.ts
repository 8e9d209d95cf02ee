/**
 * What the OAuth server keeps, and for how long (run hourly with the other sweeps, server/app.ts):
 * - tokens, access and refresh, once expired (a used refresh token still detects its replay until then);
 * - grants with no token left, once they and their revocation (if any) are older than the refresh
 *   lifetime (30 days): revoked ones, ones whose refresh token expired unused, approvals never exchanged;
 * - authorization codes a refresh lifetime after they expired (a replayed code still revokes what it
 *   issued until then);
 * - dynamically registered clients 30 days old with no grant (never approved, or every grant swept),
 *   and cached metadata-document clients with no grant once their cache expired (fetched again if used).
 * Across every account, each table in its own transaction.
 */
import { and, eq, isNotNull, isNull, lt, notExists, or, sql } from 'drizzle-orm';
import type { DbHandle } from '../../db/client';
import { oauthClients, oauthCodes, oauthGrants, oauthTokens } from '../../db/schema';
import { REFRESH_TOKEN_TTL_S } from './grants';

/** How long a registered client may wait for its first approval. */
export const UNUSED_CLIENT_DAYS = 30;

export interface OAuthSweep {
  tokens: number;
  grants: number;
  codes: number;
  clients: number;
}

export async function sweepOAuth(db: DbHandle, now = Date.now()): Promise<OAuthSweep> {
  const at = new Date(now).toISOString();
  const refreshCutoff = new Date(now - REFRESH_TOKEN_TTL_S * 1000).toISOString();
  const clientCutoff = new Date(now - UNUSED_CLIENT_DAYS * 86_400_000).toISOString();
  const one = sql`1`;

  const tokens = await db.transaction((tx) => tx.delete(oauthTokens).where(lt(oauthTokens.expires_at, at)).returning({ id: oauthTokens.id }));
  const grants = await db.transaction((tx) =>
    tx
      .delete(oauthGrants)
      .where(
        and(
          lt(oauthGrants.created_at, refreshCutoff),
          or(isNull(oauthGrants.revoked_at), lt(oauthGrants.revoked_at, refreshCutoff)),
          notExists(tx.select({ one }).from(oauthTokens).where(eq(oauthTokens.grant_id, oauthGrants.id))),
        ),
      )
      .returning({ id: oauthGrants.id }),
  );
  const codes = await db.transaction((tx) => tx.delete(oauthCodes).where(lt(oauthCodes.expires_at, refreshCutoff)).returning({ id: oauthCodes.id }));
  const clients = await db.transaction((tx) =>
    tx
      .delete(oauthClients)
      .where(
        and(
          or(
            and(eq(oauthClients.kind, 'registered'), lt(oauthClients.created_at, clientCutoff)),
            and(eq(oauthClients.kind, 'metadata_document'), isNotNull(oauthClients.expires_at), lt(oauthClients.expires_at, at)),
          ),
          notExists(
            tx
              .select({ one })
              .from(oauthGrants)
              .where(and(eq(oauthGrants.account_id, oauthClients.account_id), eq(oauthGrants.client_id, oauthClients.client_id))),
          ),
        ),
      )
      .returning({ id: oauthClients.id }),
  );
  return { tokens: tokens.length, grants: grants.length, codes: codes.length, clients: clients.length };
}
