/**
 * Ending grants inside the caller's transaction: one grant (the portal, a replayed code or refresh
 * token, a refresh token revoked by its client), or every live grant of a member (deactivation and
 * reactivation, server/domain/team.ts). Depends on the schema and the activity log only, so the team
 * domain can call it without importing the token machinery (which imports the team domain).
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { oauthGrants, oauthTokens } from '../../db/schema';
import { recordActivity, type Actor } from '../events/record';

/** The revoked_reason of the grants a member's deactivation ended (the MCP server answers user_inactive for their tokens). */
export const MEMBER_DEACTIVATED = 'member deactivated';
/** The revoked_reason of grants still live when a member is reactivated (deactivated before deactivation revoked them). */
export const MEMBER_REACTIVATED = 'member reactivated';

/** One grant ends: every token it issued with it. */
export async function revokeGrantTx(tx: Db, grantId: number, reason: string, at: string) {
  await tx.update(oauthGrants).set({ revoked_at: at, revoked_reason: reason }).where(and(eq(oauthGrants.id, grantId), isNull(oauthGrants.revoked_at)));
  await tx.delete(oauthTokens).where(eq(oauthTokens.grant_id, grantId));
}

/**
 * Every live grant of a member ends, each recorded in the activity log as a connector revocation.
 * Their refresh tokens are deleted; their access tokens (an hour at most) stay until they expire, dead
 * (every check reads the grant's revoked_at), so that the MCP server can still answer them with
 * user_inactive rather than a bare invalid token. Returns how many grants ended.
 */
export async function revokeMemberGrants(tx: Db, accountId: number, actor: Actor, userId: number, reason: string, at: string): Promise<number> {
  const live = await tx
    .select({ id: oauthGrants.id, client_id: oauthGrants.client_id })
    .from(oauthGrants)
    .where(and(eq(oauthGrants.account_id, accountId), eq(oauthGrants.user_id, userId), isNull(oauthGrants.revoked_at)));
  if (live.length === 0) return 0;
  const ids = live.map((g) => g.id);
  await tx.update(oauthGrants).set({ revoked_at: at, revoked_reason: reason }).where(and(eq(oauthGrants.account_id, accountId), inArray(oauthGrants.id, ids), isNull(oauthGrants.revoked_at)));
  await tx.delete(oauthTokens).where(and(eq(oauthTokens.account_id, accountId), inArray(oauthTokens.grant_id, ids), eq(oauthTokens.kind, 'refresh')));
  for (const g of live) await recordActivity(tx, accountId, actor, 'connectors', g.id, 'revoked', { client_id: g.client_id, reason });
  return live.length;
}
