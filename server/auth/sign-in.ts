/**
 * Email + password sign-in with throttling: at most EMAIL_FAILURES failed attempts per email and
 * IP_FAILURES per address in a WINDOW_MS window; past that, 429 with Retry-After until the oldest
 * failure leaves the window. Every refusal of a credential reads the same ("Email or password is wrong")
 * and costs the same time, whether the email exists or not.
 */
import { and, count, eq, gte, lt, min, type SQL } from 'drizzle-orm';
import type { DbHandle } from '../../db/client';
import { signInAttempts, users } from '../../db/schema';
import type { Account } from '../context';
import { ApiError } from '../errors';
import { recordActivity } from '../events/record';
import { normalEmail } from '../domain/team';
import { DUMMY_HASH, verifyPassword } from './passwords';
import { startSession, type SessionPolicy } from './sessions';

export const EMAIL_FAILURES = 5;
export const IP_FAILURES = 20;
export const WINDOW_MS = 15 * 60_000;
export const WRONG = 'Email or password is wrong';

interface Attempt {
  email: string;
  password: string;
  ip: string;
  userAgent: string | null;
}

export async function signIn(db: DbHandle, account: Account, a: Attempt, now: number, policy: SessionPolicy) {
  const email = normalEmail(a.email);
  await throttle(db, account.id, email, a.ip, now);
  const [user] = await db.db.select().from(users).where(and(eq(users.account_id, account.id), eq(users.email, email)));
  const matches = await verifyPassword(a.password, user?.password_hash ?? DUMMY_HASH);
  const ok = Boolean(user && matches && user.active);
  const at = new Date(now).toISOString();
  await db.transaction(async (tx) => {
    await tx.insert(signInAttempts).values({ account_id: account.id, email, ip: a.ip, succeeded: ok, created_at: at });
    await tx.delete(signInAttempts).where(lt(signInAttempts.created_at, new Date(now - 86_400_000).toISOString()));
    if (user && ok) {
      await tx.update(users).set({ last_sign_in_at: at }).where(eq(users.id, user.id));
      await recordActivity(tx, account.id, { actor_type: 'user', actor_id: user.id, actor_name: user.name }, 'sessions', user.id, 'signed_in', { ip: a.ip });
    }
  });
  // A deactivated member hears the same as a wrong password: nothing tells an outsider who is a member.
  if (!user || !ok) throw new ApiError('unauthenticated', WRONG);
  const token = await startSession(db, account.id, user.id, now, policy, { ip: a.ip, userAgent: a.userAgent });
  return { token, user };
}

async function throttle(db: DbHandle, accountId: number, email: string, ip: string, now: number) {
  const since = new Date(now - WINDOW_MS).toISOString();
  const failures = async (...where: SQL[]) => {
    const [row] = await db.db
      .select({ n: count(), first: min(signInAttempts.created_at) })
      .from(signInAttempts)
      .where(and(eq(signInAttempts.succeeded, false), gte(signInAttempts.created_at, since), ...where));
    return { n: Number(row?.n ?? 0), first: row?.first ?? null };
  };
  const checks = [
    { limit: EMAIL_FAILURES, seen: await failures(eq(signInAttempts.account_id, accountId), eq(signInAttempts.email, email)) },
    { limit: IP_FAILURES, seen: await failures(eq(signInAttempts.ip, ip)) },
  ];
  for (const { limit, seen } of checks) {
    if (seen.n < limit || !seen.first) continue;
    const retryAfter = Math.max(1, Math.ceil((Date.parse(seen.first) + WINDOW_MS - now) / 1000));
    throw new ApiError('rate_limited', `Too many failed sign-ins: try again in ${Math.ceil(retryAfter / 60)} minute(s)`, undefined, { headers: { 'Retry-After': String(retryAfter) } });
  }
}
