/**
 * Portal sessions: a random token in an HttpOnly cookie, its SHA-256 in the database. A session ends at
 * its absolute expiry, after the idle window, on sign-out, or when its member is deactivated (their
 * sessions are deleted and every request re-checks that the member is active). A session that has
 * passed the password but not yet the second factor (stage `second_factor`, or `enrol` while setting one
 * up as the clinic requires) opens nothing else and lasts STEP_MINUTES.
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, lt, ne, or } from 'drizzle-orm';
import type { Db, DbHandle } from '../../db/client';
import { sessions, users, type SessionStage } from '../../db/schema';
import type { MemberPrincipal } from '../context';
import { memberPrincipal } from './members';
import { hashSecret } from './keys';

export interface SessionPolicy {
  idleMs: number;
  maxMs: number;
}

/** last_seen_at is written at most this often (a write per request would cost every page view). */
const TOUCH_EVERY_MS = 60_000;
/** How long the step after the password may take (second factor, or setting one up). */
export const STEP_MINUTES = 10;

/** A session as a request sees it: the member, and how far they are signed in. */
export interface OpenSession {
  sessionId: number;
  stage: SessionStage;
  member: MemberPrincipal;
  userId: number;
}

export async function startSession(
  db: DbHandle,
  accountId: number,
  userId: number,
  now: number,
  policy: SessionPolicy,
  meta: { ip: string; userAgent: string | null },
  stage: SessionStage = 'signed_in',
) {
  const token = randomBytes(32).toString('base64url');
  const at = new Date(now).toISOString();
  const lasts = stage === 'signed_in' ? policy.maxMs : Math.min(policy.maxMs, STEP_MINUTES * 60_000);
  await db.transaction(async (tx) => {
    await tx.insert(sessions).values({
      account_id: accountId,
      user_id: userId,
      token_hash: hashSecret(token),
      ip: meta.ip,
      user_agent: meta.userAgent?.slice(0, 500) ?? null,
      stage,
      created_at: at,
      last_seen_at: at,
      expires_at: new Date(now + lasts).toISOString(),
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

/** The session of a token on this account, or null (unknown, expired, idle too long, member deactivated). */
export async function resumeSession(
  db: DbHandle,
  accountId: number,
  token: string,
  now: number,
  policy: SessionPolicy,
): Promise<OpenSession | null> {
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
  return {
    sessionId: session.id,
    stage: session.stage,
    userId: user.id,
    member: await memberPrincipal(db.db, accountId, user),
  };
}

export async function endSession(db: DbHandle, accountId: number, sessionId: number): Promise<void> {
  await db.transaction((tx) =>
    tx.delete(sessions).where(and(eq(sessions.account_id, accountId), eq(sessions.id, sessionId))),
  );
}

/** Every session of a member ends (password changed or reset, role changed, second factor reset), but `keep`. */
export async function endSessionsOf(tx: Db, accountId: number, userId: number, keep?: number): Promise<number> {
  const ended = await tx
    .delete(sessions)
    .where(
      and(
        eq(sessions.account_id, accountId),
        eq(sessions.user_id, userId),
        ...(keep === undefined ? [] : [ne(sessions.id, keep)]),
      ),
    )
    .returning({ id: sessions.id });
  return ended.length;
}

/** A session moves on to its next stage (the second factor passed: signed in for the full lifetime). */
export async function advanceSession(
  tx: Db,
  accountId: number,
  sessionId: number,
  stage: SessionStage,
  now: number,
  policy: SessionPolicy,
) {
  await tx
    .update(sessions)
    .set({
      stage,
      challenge: null,
      ...(stage === 'signed_in' ? { expires_at: new Date(now + policy.maxMs).toISOString() } : {}),
    })
    .where(and(eq(sessions.account_id, accountId), eq(sessions.id, sessionId)));
}

/** The member's sessions, newest first, for "Your sessions" and a member's row on the Team page. */
export async function listSessions(db: Db, accountId: number, userId: number, now: number, policy: SessionPolicy) {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.account_id, accountId), eq(sessions.user_id, userId), eq(sessions.stage, 'signed_in')))
    .orderBy(desc(sessions.last_seen_at));
  return rows
    .filter((s) => Date.parse(s.expires_at) > now && Date.parse(s.last_seen_at) + policy.idleMs > now)
    .map((s) => ({
      id: s.id,
      ip: s.ip,
      user_agent: s.user_agent,
      signed_in_at: s.created_at,
      last_seen_at: s.last_seen_at,
    }));
}
