/**
 * Email + password sign-in with throttling that cannot be raced: the attempt is taken in the database
 * (one transaction, serialised across processes) BEFORE the password is hashed, as a failure that only
 * a correct password turns into a success. So parallel requests, batches and several processes all
 * see each other's attempts, and an attempt past the limit never reaches scrypt.
 *
 * Limits within WINDOW_MS (docs/decisions.md, "Sign-in throttling"):
 * - EMAIL_IP_FAILURES per member email from one address: the guessing limit;
 * - EMAIL_FAILURES per member email from all addresses, except addresses this email signed in from
 *   successfully within KNOWN_ADDRESS_MS: an outsider who knows the email can lock out strangers'
 *   addresses, but not the member's own;
 * - IP_FAILURES per address, whatever the email (an address is an IPv4 address or an IPv6 /64), refusals
 *   for load included.
 * Past a limit: 429 with Retry-After until the oldest counted failure leaves the window. Every refusal
 * of a credential reads the same ("Email or password is wrong") and costs the same time, whether the
 * email exists or not.
 */
import { and, count, eq, gte, lt, min, or, sql, type SQL } from 'drizzle-orm';
import { allIn, type Db, type DbHandle } from '../../db/client';
import { isPg } from '../../db/dialect';
import { signInAttempts, users, type SessionStage } from '../../db/schema';
import type { Account } from '../context';
import { ApiError } from '../errors';
import { memberActor, recordActivity } from '../events/record';
import { normalEmail } from './members';
import { hashSlots } from './hash-slots';
import { factorsOf, hasSecondFactor, policyOf, policyRequires } from './second-factor';
import { usableHash, verifyPassword } from './passwords';
import { startSession, type SessionPolicy } from './sessions';

export const EMAIL_IP_FAILURES = 5;
export const EMAIL_FAILURES = 20;
export const IP_FAILURES = 20;
export const WINDOW_MS = 15 * 60_000;
/** How long a successful sign-in makes its address known for that email (and is kept). */
export const KNOWN_ADDRESS_MS = 30 * 86_400_000;
const FAILURE_KEEP_MS = 86_400_000;
/** The advisory-lock namespace of sign-in attempts on PostgreSQL. */
const ATTEMPT_LOCK = 72_732;
export const WRONG = 'Email or password is wrong';

interface Attempt {
  email: string;
  password: string;
  /** The address as sent (recorded on the session and in the activity log). */
  ip: string;
  /** What the limits count it under: the IPv4 address or the IPv6 /64 (server/values/address.ts). */
  addressKey: string;
  userAgent: string | null;
}

/**
 * The member these credentials are, counted and throttled as a sign-in attempt (the portal's sign-in, and
 * the current password when a member changes it): the member, or 401 WRONG, or 429.
 */
export async function checkCredentials(
  db: DbHandle,
  accountId: number,
  a: Omit<Attempt, 'userAgent' | 'ip'>,
  now: number,
) {
  const email = normalEmail(a.email);
  const attemptId = await takeAttempt(db, accountId, email, a.addressKey, now);
  const release = await hashSlotFor(db, accountId, email, attemptId);
  let user: typeof users.$inferSelect | undefined, matches: boolean;
  try {
    [user] = await db.db
      .select()
      .from(users)
      .where(and(eq(users.account_id, accountId), eq(users.email, email)));
    // A member who has not set a password yet (set-up link pending) costs the same hash as anyone.
    matches = await verifyPassword(a.password, usableHash(user?.password_hash));
  } finally {
    release();
  }
  // A deactivated member hears the same as a wrong password: nothing tells an outsider who is a member.
  if (!user || !matches || !user.active) throw new ApiError('unauthenticated', WRONG);
  await db.transaction((tx) =>
    tx
      .update(signInAttempts)
      .set({ succeeded: true })
      .where(and(eq(signInAttempts.account_id, accountId), eq(signInAttempts.id, attemptId))),
  );
  return user;
}

/**
 * Email and password. A member with a second factor gets a session in the `second_factor` stage; one
 * whom the clinic's policy requires to have one and who has none, `enrol` (set one up now); anyone else
 * is signed in.
 */
export async function signIn(db: DbHandle, account: Account, a: Attempt, now: number, policy: SessionPolicy) {
  const user = await checkCredentials(db, account.id, a, now);
  const factors = await factorsOf(db.db, account.id, user);
  const stage: SessionStage = hasSecondFactor(factors)
    ? 'second_factor'
    : policyRequires(await policyOf(db.db, account.id), user.role)
      ? 'enrol'
      : 'signed_in';
  const at = new Date(now).toISOString();
  await db.transaction(async (tx) => {
    if (stage === 'signed_in')
      await tx
        .update(users)
        .set({ last_sign_in_at: at })
        .where(and(eq(users.account_id, account.id), eq(users.id, user.id)));
    await recordActivity(
      tx,
      account.id,
      memberActor(user),
      'sessions',
      user.id,
      stage === 'signed_in' ? 'signed_in' : 'password_accepted',
      { ip: a.ip },
    );
  });
  const token = await startSession(db, account.id, user.id, now, policy, { ip: a.ip, userAgent: a.userAgent }, stage);
  return { token, user, stage, factors };
}

/**
 * Checks the limits and records the attempt as a failure, in one transaction: the id of the attempt,
 * or 429 rate_limited.
 */
async function takeAttempt(db: DbHandle, accountId: number, email: string, ip: string, now: number): Promise<number> {
  const since = new Date(now - WINDOW_MS).toISOString();
  const id = await db.transaction(async (tx) => {
    // Attempts on one email, and from one address, are taken one at a time (SQLite: every write
    // transaction is). Always the email's lock first, so two transactions never wait on each other.
    if (isPg) {
      for (const key of [`email:${accountId}:${email}`, `ip:${ip}`])
        await allIn(tx, sql`select pg_advisory_xact_lock(${ATTEMPT_LOCK}, hashtext(${key}))`);
    }
    const failures = async (...where: SQL[]) => {
      const [row] = await tx
        .select({ n: count(), first: min(signInAttempts.created_at) })
        .from(signInAttempts)
        .where(and(eq(signInAttempts.succeeded, false), gte(signInAttempts.created_at, since), ...where));
      return { n: Number(row?.n ?? 0), first: row?.first ?? null };
    };
    const ofEmail = [eq(signInAttempts.account_id, accountId), eq(signInAttempts.email, email)];
    const known = await knownAddress(tx, accountId, email, ip, now);
    const checks = [
      { limit: EMAIL_IP_FAILURES, seen: await failures(...ofEmail, eq(signInAttempts.ip, ip)) },
      ...(known ? [] : [{ limit: EMAIL_FAILURES, seen: await failures(...ofEmail) }]),
      { limit: IP_FAILURES, seen: await failures(eq(signInAttempts.ip, ip)) },
    ];
    for (const { limit, seen } of checks) {
      if (seen.n < limit || !seen.first) continue;
      const retryAfter = Math.max(1, Math.ceil((Date.parse(seen.first) + WINDOW_MS - now) / 1000));
      throw new ApiError(
        'rate_limited',
        `Too many failed sign-ins: try again in ${Math.ceil(retryAfter / 60)} minute(s)`,
        undefined,
        { headers: { 'Retry-After': String(retryAfter) } },
      );
    }
    const [row] = await tx
      .insert(signInAttempts)
      .values({ account_id: accountId, email, ip, succeeded: false, created_at: new Date(now).toISOString() })
      .returning({ id: signInAttempts.id });
    return row.id;
  });
  await sweep(db, now);
  return id;
}

let lastSweep = 0;

/** Old attempts go, at most once a minute per process: failures after a day, successes after KNOWN_ADDRESS_MS. */
async function sweep(db: DbHandle, now: number) {
  if (Math.abs(now - lastSweep) < 60_000) return;
  lastSweep = now;
  const before = (ms: number) => lt(signInAttempts.created_at, new Date(now - ms).toISOString());
  await db.transaction((tx) =>
    tx
      .delete(signInAttempts)
      .where(or(and(eq(signInAttempts.succeeded, false), before(FAILURE_KEEP_MS)), before(KNOWN_ADDRESS_MS))),
  );
}

/**
 * A hash slot for a taken attempt (server/auth/hash-slots.ts). Refused when the clinic or the email has
 * too many sign-ins in flight: the attempt then stays a failure of its address only (its email is
 * blanked), so a flood of refusals spends the flooding addresses' budgets and no one's email limit.
 */
async function hashSlotFor(db: DbHandle, accountId: number, email: string, attemptId: number) {
  try {
    return await hashSlots.take(accountId, email);
  } catch (err) {
    await db.transaction((tx) =>
      tx
        .update(signInAttempts)
        .set({ email: '' })
        .where(and(eq(signInAttempts.account_id, accountId), eq(signInAttempts.id, attemptId))),
    );
    throw err;
  }
}

/** Whether this email signed in successfully from this address recently. */
async function knownAddress(tx: Db, accountId: number, email: string, ip: string, now: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: signInAttempts.id })
    .from(signInAttempts)
    .where(
      and(
        eq(signInAttempts.account_id, accountId),
        eq(signInAttempts.email, email),
        eq(signInAttempts.ip, ip),
        eq(signInAttempts.succeeded, true),
        gte(signInAttempts.created_at, new Date(now - KNOWN_ADDRESS_MS).toISOString()),
      ),
    )
    .limit(1);
  return Boolean(row);
}
