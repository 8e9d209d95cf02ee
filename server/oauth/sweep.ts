/**
 * What the OAuth server keeps, and for how long (run hourly with the other sweeps, server/jobs/index.ts):
 * - tokens, access and refresh, once expired (a used refresh token still detects its replay until then);
 * - grants with no token left, once they and their revocation (if any) are older than the refresh
 *   lifetime (30 days): revoked ones, ones whose refresh token expired unused, approvals never exchanged;
 * - authorization codes a refresh lifetime after they expired (a replayed code still revokes what it
 *   issued until then);
 * - dynamically registered clients 30 days old with no grant (never approved, or every grant swept),
 *   and cached metadata-document clients with no grant once their cache expired (fetched again if used).
 * Across every account, in that order (a grant goes once its tokens have, a client once its grants
 * have), each in batches like every sweep (server/scheduler/sweep-batches.ts). Tokens and codes are written
 * per sign-in and per refresh, so they are read oldest first by an index on expires_at; grants and
 * clients (one per approval, one per app) are walked by id a batch at a time, the expired among each
 * batch deleted: their predicates (no token left, no grant left) fit no index, and a batch reads only
 * its own rows.
 */
import { and, asc, eq, gt, isNotNull, isNull, lt, lte, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { Db, DbHandle } from '../../db/client';
import { keyIn, keyOf } from '../../db/dialect';
import { oauthClients, oauthCodes, oauthGrants, oauthTokens } from '../../db/schema';
import type { JobRun } from '../scheduler/scheduler';
import { paceOf, sweepInBatches, type BatchResult, type SweepOutcome } from '../scheduler/sweep-batches';
import { REFRESH_TOKEN_TTL_S } from './grants';

/** How long a registered client may wait for its first approval. */
export const UNUSED_CLIENT_DAYS = 30;

export interface OAuthSweep extends SweepOutcome {
  tokens: number;
  grants: number;
  codes: number;
  clients: number;
}

/** One batch of expired tokens, the earliest expired first, by oauth_tokens_expires_idx. */
export function expiredTokensBatch(tx: Db, now: number, limit: number) {
  const t = oauthTokens;
  const expired = tx
    .select(keyOf(t))
    .from(t)
    .where(lt(t.expires_at, new Date(now).toISOString()))
    .orderBy(asc(t.expires_at))
    .limit(limit);
  return tx.delete(t).where(keyIn(t, expired)).returning({ id: t.id });
}

/** One batch of codes expired a refresh lifetime ago, the earliest first, by oauth_codes_expires_idx. */
export function expiredCodesBatch(tx: Db, now: number, limit: number) {
  const t = oauthCodes;
  const expired = tx
    .select(keyOf(t))
    .from(t)
    .where(lt(t.expires_at, new Date(now - REFRESH_TOKEN_TTL_S * 1000).toISOString()))
    .orderBy(asc(t.expires_at))
    .limit(limit);
  return tx.delete(t).where(keyIn(t, expired)).returning({ id: t.id });
}

type Walked = typeof oauthGrants | typeof oauthClients;

/**
 * A batch that walks `t` by id: the next `limit` ids after the last batch's, of which those matching
 * `expired(tx)` are deleted; more while a batch was full.
 */
function walkById(t: Walked, expired: (tx: Db) => SQL | undefined) {
  let after = 0;
  return async (tx: Db, limit: number): Promise<BatchResult> => {
    const chunk = await tx.select({ id: t.id }).from(t).where(gt(t.id, after)).orderBy(asc(t.id)).limit(limit);
    if (chunk.length === 0) return { deleted: 0, more: false };
    const last = chunk[chunk.length - 1].id;
    const gone = await tx
      .delete(t)
      .where(and(gt(t.id, after), lte(t.id, last), expired(tx)))
      .returning({ id: t.id });
    after = last;
    return { deleted: gone.length, more: chunk.length >= limit };
  };
}

export async function sweepOAuth(db: DbHandle, now = Date.now(), run?: JobRun): Promise<OAuthSweep> {
  const at = new Date(now).toISOString();
  const refreshCutoff = new Date(now - REFRESH_TOKEN_TTL_S * 1000).toISOString();
  const clientCutoff = new Date(now - UNUSED_CLIENT_DAYS * 86_400_000).toISOString();
  const one = sql`1`;

  const phases: [keyof Omit<OAuthSweep, 'deleted' | 'again'>, (tx: Db, limit: number) => Promise<BatchResult>][] = [
    ['tokens', async (tx, limit) => (await expiredTokensBatch(tx, now, limit)).length],
    [
      'grants',
      walkById(oauthGrants, (tx) =>
        and(
          lt(oauthGrants.created_at, refreshCutoff),
          or(isNull(oauthGrants.revoked_at), lt(oauthGrants.revoked_at, refreshCutoff)),
          notExists(
            tx
              .select({ one })
              .from(oauthTokens)
              .where(and(eq(oauthTokens.account_id, oauthGrants.account_id), eq(oauthTokens.grant_id, oauthGrants.id))),
          ),
        ),
      ),
    ],
    ['codes', async (tx, limit) => (await expiredCodesBatch(tx, now, limit)).length],
    [
      'clients',
      walkById(oauthClients, (tx) =>
        and(
          or(
            and(eq(oauthClients.kind, 'registered'), lt(oauthClients.created_at, clientCutoff)),
            and(
              eq(oauthClients.kind, 'metadata_document'),
              isNotNull(oauthClients.expires_at),
              lt(oauthClients.expires_at, at),
            ),
          ),
          notExists(
            tx
              .select({ one })
              .from(oauthGrants)
              .where(
                and(
                  eq(oauthGrants.account_id, oauthClients.account_id),
                  eq(oauthGrants.client_id, oauthClients.client_id),
                ),
              ),
          ),
        ),
      ),
    ],
  ];
  const out: OAuthSweep = { tokens: 0, grants: 0, codes: 0, clients: 0, deleted: 0, again: false };
  const bound = paceOf(db).rowsPerRun;
  for (const [name, batch] of phases) {
    // One bound for the run, across its four tables.
    if (out.deleted >= bound) return { ...out, again: true };
    const o = await sweepInBatches(db, run, batch, bound - out.deleted);
    out[name] = o.deleted;
    out.deleted += o.deleted;
    // The next phase waits for the next run: a grant is swept only once its tokens are.
    if (o.again) return { ...out, again: true };
  }
  return out;
}
