/**
 * Portal sessions: a random token in an HttpOnly cookie, its SHA-256 in the database. A session ends at
 * its absolute expiry, after the idle window, on sign-out, or when its member is deactivated (their
 * sessions are deleted and every request re-checks that the member is active).
 */
import { randomBytes } from 'node:crypto';
import { and, eq, lt, or } from 'drizzle-orm';
import type { DbHandle } from '../../db/client';
import { sessions, users } from '../../db/schema';
import type { MemberPrincipal } from '../context';
import { memberPrincipal } from '../domain/team';
import { hashSecret } from './keys';

export interface SessionPolicy {
  idleMs: number;
  maxMs: number;
}

/** last_seen_at is written at most this often (a write per request would cost every page view). */
const TOUCH_EVERY_MS = 60_000;

export async function startSession(
  db: DbHandle,
  accountId: number,
  userId: number,
  now: number,
  policy: SessionPolicy,
  meta: { ip: string; userAgent: string | null },
) {
  const token = randomBytes(32).toString('base64url');
  const at = new Date(now).toISOString();
  await db.transaction(async (tx) => {
    await tx.insert(sessions).values({
      account_id: accountId,
      user_id: userId,
      token_hash: hashSecret(token),
      ip: meta.ip,
      user_agent: meta.userAgent?.slice(0, 500) ?? null,
      created_at: at,
      last_seen_at: at,
      expires_at: new Date(now + policy.maxMs).toISOString(),
    });
    // Expired sessions of anyone on the account go when someone signs in.
    await tx
      .delete(sessions)
      .where(
        and(
          eq(sessions.account_id, accountId),
          or(lt(sessions.expires_at, at), lt(sessions.last_seen_at, new Date(now - policy.idleMs).toISOString())),
        ),
      );
  });
  return token;
}

/** The member behind a session token on this account, or null (unknown, expired, idle too long, deactivated). */
export async function resumeSession(
  db: DbHandle,
  accountId: number,
  token: string,
  now: number,
  policy: SessionPolicy,
): Promise<{ sessionId: number; member: MemberPrincipal } | null> {
  const [row] = await db.db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, and(eq(users.account_id, sessions.account_id), eq(users.id, sessions.user_id)))
    .where(and(eq(sessions.token_hash, hashSecret(token)), eq(sessions.account_id, accountId)));
  if (!row) return null;
  const { session, user } = row;
  const expired = Date.parse(session.expires_at) <= now || Date.parse(session.last_seen_at) + policy.idleMs <= now;
  if (expired || !user.active) {
    await endSession(db, accountId, session.id);
    return null;
  }
  if (now - Date.parse(session.last_seen_at) >= TOUCH_EVERY_MS) {
    await db.transaction((tx) =>
      tx
        .update(sessions)
        .set({ last_seen_at: new Date(now).toISOString() })
        .where(and(eq(sessions.account_id, accountId), eq(sessions.id, session.id))),
    );
  }
  return { sessionId: session.id, member: await memberPrincipal(db.db, accountId, user) };
}

export async function endSession(db: DbHandle, accountId: number, sessionId: number): Promise<void> {
  await db.transaction((tx) =>
    tx.delete(sessions).where(and(eq(sessions.account_id, accountId), eq(sessions.id, sessionId))),
  );
}
