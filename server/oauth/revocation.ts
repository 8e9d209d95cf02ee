/**
 * Ending grants inside the caller's transaction: one grant (the portal, a replayed code or refresh
 * token, a refresh token revoked by its client), or every live grant of a member (deactivation and
 * reactivation, server/domain/team.ts). Every grant that ends is a `connectors revoked` entry of the
 * activity log, naming the app, the member and why. Depends on the schema and the activity log only, so
 * the team domain can call it without importing the token machinery (which imports the team domain).
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { oauthClients, oauthGrants, oauthTokens, users } from '../../db/schema';
import { recordActivity, type Actor } from '../events/record';

/** The revoked_reason of the grants a member's deactivation ended (the MCP server answers user_inactive for their tokens). */
export const MEMBER_DEACTIVATED = 'member deactivated';
/** The revoked_reason of grants still live when a member is reactivated (deactivated before deactivation revoked them). */
export const MEMBER_REACTIVATED = 'member reactivated';

/** Who the activity log names when the server revokes a grant whose code or refresh token came back. */
export const REUSE_DETECTION: Actor = {
  actor_type: 'system',
  actor_id: null,
  actor_name: 'OAuth token reuse detection',
};
/** Who the activity log names when an app revokes its own token (RFC 7009). */
export const clientActor = (client: { name: string }): Actor => ({
  actor_type: 'connector',
  actor_id: null,
  actor_name: client.name,
});

/**
 * The activity-log entries of grants that just ended, with the app's and the member's names: the grant
 * (and the client) may be swept long before the entry is read.
 */
async function recordRevoked(tx: Db, accountId: number, actor: Actor, grantIds: number[], reason: string) {
  const ended = await tx
    .select({
      id: oauthGrants.id,
      client_id: oauthGrants.client_id,
      client: oauthClients.name,
      member_id: oauthGrants.user_id,
      member: users.name,
    })
    .from(oauthGrants)
    .leftJoin(
      oauthClients,
      and(eq(oauthClients.account_id, oauthGrants.account_id), eq(oauthClients.client_id, oauthGrants.client_id)),
    )
    .leftJoin(users, and(eq(users.account_id, oauthGrants.account_id), eq(users.id, oauthGrants.user_id)))
    .where(and(eq(oauthGrants.account_id, accountId), inArray(oauthGrants.id, grantIds)))
    .orderBy(oauthGrants.id);
  for (const g of ended)
    await recordActivity(tx, accountId, actor, 'connectors', g.id, 'revoked', {
      client: g.client,
      client_id: g.client_id,
      member: g.member,
      member_id: g.member_id,
      reason,
    });
}

/** One grant ends: every token it issued with it; recorded once, by whoever ended it first. */
export async function revokeGrantTx(
  tx: Db,
  accountId: number,
  actor: Actor,
  grantId: number,
  reason: string,
  at: string,
) {
  const ended = await tx
    .update(oauthGrants)
    .set({ revoked_at: at, revoked_reason: reason })
    .where(and(eq(oauthGrants.account_id, accountId), eq(oauthGrants.id, grantId), isNull(oauthGrants.revoked_at)))
    .returning({ id: oauthGrants.id });
  await tx.delete(oauthTokens).where(and(eq(oauthTokens.account_id, accountId), eq(oauthTokens.grant_id, grantId)));
  if (ended.length) await recordRevoked(tx, accountId, actor, [grantId], reason);
}

/**
 * Every live grant of a member ends, each recorded in the activity log as a connector revocation.
 * Their refresh tokens are deleted; their access tokens (an hour at most) stay until they expire, dead
 * (every check reads the grant's revoked_at), so that the MCP server can still answer them with
 * user_inactive rather than a bare invalid token. Returns how many grants ended.
 */
export async function revokeMemberGrants(
  tx: Db,
  accountId: number,
  actor: Actor,
  userId: number,
  reason: string,
  at: string,
): Promise<number> {
  const live = await tx
    .select({ id: oauthGrants.id })
    .from(oauthGrants)
    .where(and(eq(oauthGrants.account_id, accountId), eq(oauthGrants.user_id, userId), isNull(oauthGrants.revoked_at)));
  if (live.length === 0) return 0;
  const ids = live.map((g) => g.id);
  await tx
    .update(oauthGrants)
    .set({ revoked_at: at, revoked_reason: reason })
    .where(and(eq(oauthGrants.account_id, accountId), inArray(oauthGrants.id, ids), isNull(oauthGrants.revoked_at)));
  await tx
    .delete(oauthTokens)
    .where(
      and(eq(oauthTokens.account_id, accountId), inArray(oauthTokens.grant_id, ids), eq(oauthTokens.kind, 'refresh')),
    );
  await recordRevoked(tx, accountId, actor, ids, reason);
  return live.length;
}
