/**
 * Two-factor sign-in: TOTP (RFC 6238, via otpauth: 6 digits, 30 s, one step either side for clock
 * drift), passkeys (server/auth/passkeys.ts) and one-time recovery codes. The TOTP secret is sealed
 * with the secrets key; a code is accepted once (the step is remembered). Wrong second factors count
 * per member: FACTOR_FAILURES within FACTOR_WINDOW_MS and the step answers 429 until the window has
 * passed, whichever session they came from; the step is reached only through a correct password
 * (the session's stage), itself throttled (server/auth/sign-in.ts).
 */
import { createHash, randomInt } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import type { Db, DbHandle } from '../../db/client';
import { accounts, passkeys, recoveryCodes, users, type RoleKey, type TwoFactorPolicy } from '../../db/schema';
import type { Account } from '../context';
import { ApiError, invalid } from '../errors';
import { memberActor, recordActivity, type Actor } from '../events/record';
import { open, seal } from './secrets';
import { advanceSession, endSessionsOf, type SessionPolicy } from './sessions';

export const FACTOR_FAILURES = 10;
export const FACTOR_WINDOW_MS = 15 * 60_000;
export const RECOVERY_CODES = 10;
const PERIOD = 30;

type UserRow = typeof users.$inferSelect;
const iso = (ms: number) => new Date(ms).toISOString();
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const totpOf = (account: Account, email: string, secret: string) =>
  new OTPAuth.TOTP({
    issuer: `${account.name} (Clinic API)`,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: OTPAuth.Secret.fromBase32(secret),
  });

export async function memberRow(db: Db, accountId: number, userId: number): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.account_id, accountId), eq(users.id, userId)));
  if (!row) throw new ApiError('not_found', 'No such team member');
  return row;
}

/** What second factors a member has. */
export async function factorsOf(db: Db, accountId: number, user: UserRow) {
  const keys = await db
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(and(eq(passkeys.account_id, accountId), eq(passkeys.user_id, user.id)));
  const codes = await db
    .select({ id: recoveryCodes.id })
    .from(recoveryCodes)
    .where(
      and(eq(recoveryCodes.account_id, accountId), eq(recoveryCodes.user_id, user.id), isNull(recoveryCodes.used_at)),
    );
  return { totp: Boolean(user.totp_enabled_at), passkeys: keys.length, recovery_codes_left: codes.length };
}

export const hasSecondFactor = (f: { totp: boolean; passkeys: number }) => f.totp || f.passkeys > 0;

/** Whether the clinic's policy makes this role sign in with a second factor. */
export const policyRequires = (policy: TwoFactorPolicy, role: RoleKey) =>
  policy === 'everyone' || (policy === 'admins' && (role === 'owner' || role === 'admin'));

export async function policyOf(db: Db, accountId: number): Promise<TwoFactorPolicy> {
  const [row] = await db
    .select({ policy: accounts.two_factor_policy })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row?.policy ?? 'optional';
}

export async function setPolicy(db: DbHandle, account: Account, actor: Actor, policy: TwoFactorPolicy) {
  await db.transaction(async (tx) => {
    const before = await policyOf(tx, account.id);
    await tx.update(accounts).set({ two_factor_policy: policy }).where(eq(accounts.id, account.id));
    await recordActivity(tx, account.id, actor, 'accounts', account.id, 'two_factor_policy_changed', {
      two_factor_policy: { from: before, to: policy },
    });
  });
}

/** A new TOTP secret for the member, pending until a code from it is entered (confirmTotp). */
export async function startTotp(db: DbHandle, account: Account, userId: number) {
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  const user = await memberRow(db.db, account.id, userId);
  if (user.totp_enabled_at) throw new ApiError('conflict', 'An authenticator app is already set up: remove it first');
  await db.transaction((tx) =>
    tx
      .update(users)
      .set({ totp_secret: seal(secret) })
      .where(and(eq(users.account_id, account.id), eq(users.id, userId))),
  );
  const uri = totpOf(account, user.email, secret).toString();
  return { secret, uri, qr_svg: await QRCode.toString(uri, { type: 'svg', margin: 1 }) };
}

/** The TOTP step a code is accepted at, or null (wrong, or already used). */
function acceptedStep(account: Account, user: UserRow, code: string, now: number): number | null {
  if (!user.totp_secret || !/^\d{6}$/.test(code)) return null;
  const delta = totpOf(account, user.email, open(user.totp_secret)).validate({
    token: code,
    timestamp: now,
    window: 1,
  });
  if (delta === null) return null;
  const step = Math.floor(now / 1000 / PERIOD) + delta;
  return user.totp_last_step !== null && step <= user.totp_last_step ? null : step;
}

/**
 * The member proves the authenticator app works; TOTP is on from now. The first factor a member sets
 * up comes with recovery codes (returned once); a session in the `enrol` stage is then signed in.
 */
export async function confirmTotp(
  db: DbHandle,
  account: Account,
  actor: Actor,
  userId: number,
  code: string,
  now: number,
  session?: { id: number; policy: SessionPolicy },
) {
  const user = await memberRow(db.db, account.id, userId);
  if (!user.totp_secret || user.totp_enabled_at) throw new ApiError('conflict', 'Start setting up the app first');
  const step = acceptedStep(account, user, code.replace(/\s/g, ''), now);
  if (step === null)
    throw invalid('code', 'is not the code the app shows now: check the app and try again', 'validation_failed');
  return db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ totp_enabled_at: iso(now), totp_last_step: step, updated_at: iso(now) })
      .where(and(eq(users.account_id, account.id), eq(users.id, userId)));
    await recordActivity(tx, account.id, actor, 'users', userId, 'totp_enabled');
    return finishEnrolment(tx, account, actor, userId, now, session);
  });
}

/** After a first factor is added: recovery codes if the member has none left, and an `enrol` session signed in. */
export async function finishEnrolment(
  tx: Db,
  account: Account,
  actor: Actor,
  userId: number,
  now: number,
  session?: { id: number; policy: SessionPolicy },
) {
  const [left] = await tx
    .select({ id: recoveryCodes.id })
    .from(recoveryCodes)
    .where(
      and(eq(recoveryCodes.account_id, account.id), eq(recoveryCodes.user_id, userId), isNull(recoveryCodes.used_at)),
    )
    .limit(1);
  const codes = left ? null : await newRecoveryCodes(tx, account.id, actor, userId, now);
  if (session) await advanceSession(tx, account.id, session.id, 'signed_in', now, session.policy);
  return { recovery_codes: codes };
}

/** Ten new recovery codes (the old ones stop working), returned once: only their hashes are kept. */
export async function newRecoveryCodes(tx: Db, accountId: number, actor: Actor, userId: number, now: number) {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const raw = Array.from({ length: 10 }, () => alphabet[randomInt(alphabet.length)]).join('');
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  await tx.delete(recoveryCodes).where(and(eq(recoveryCodes.account_id, accountId), eq(recoveryCodes.user_id, userId)));
  await tx
    .insert(recoveryCodes)
    .values(codes.map((c) => ({ account_id: accountId, user_id: userId, code_hash: sha256(c), created_at: iso(now) })));
  await recordActivity(tx, accountId, actor, 'users', userId, 'recovery_codes_created');
  return codes;
}

/** The member turns their authenticator app off; refused when the clinic requires a factor and it is the last. */
export async function removeTotp(db: DbHandle, account: Account, actor: Actor, userId: number) {
  await db.transaction(async (tx) => {
    const user = await memberRow(tx, account.id, userId);
    const factors = await factorsOf(tx, account.id, user);
    if (factors.passkeys === 0 && policyRequires(await policyOf(tx, account.id), user.role))
      throw new ApiError(
        'conflict',
        'The clinic requires two-factor sign-in for you: add a passkey before removing the app',
      );
    await tx
      .update(users)
      .set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null })
      .where(and(eq(users.account_id, account.id), eq(users.id, userId)));
    await recordActivity(tx, account.id, actor, 'users', userId, 'totp_removed');
  });
}

/** 429 while the member has FACTOR_FAILURES wrong second factors in the window. */
export function checkFactorThrottle(user: UserRow, now: number): void {
  if (!user.factor_failed_at || user.factor_failures < FACTOR_FAILURES) return;
  const until = Date.parse(user.factor_failed_at) + FACTOR_WINDOW_MS;
  if (until <= now) return;
  const retryAfter = Math.max(1, Math.ceil((until - now) / 1000));
  throw new ApiError(
    'rate_limited',
    `Too many wrong codes: try again in ${Math.ceil(retryAfter / 60)} minute(s)`,
    undefined,
    {
      headers: { 'Retry-After': String(retryAfter) },
    },
  );
}

/** A wrong second factor is counted (a new window starts when the last one has passed). */
export async function countFactorFailure(db: DbHandle, accountId: number, user: UserRow, now: number) {
  const fresh = !user.factor_failed_at || Date.parse(user.factor_failed_at) + FACTOR_WINDOW_MS <= now;
  await db.transaction((tx) =>
    tx
      .update(users)
      .set(
        fresh
          ? { factor_failures: 1, factor_failed_at: iso(now) }
          : { factor_failures: sql`${users.factor_failures} + 1` },
      )
      .where(and(eq(users.account_id, accountId), eq(users.id, user.id))),
  );
}

export type FactorProof = { code: string } | { recovery_code: string };

/**
 * The second step of signing in with a code from the app or a recovery code: the session is signed in,
 * or the failure is counted and the answer is 401 (429 past the limit).
 */
export async function passSecondFactor(
  db: DbHandle,
  account: Account,
  session: { id: number; userId: number; policy: SessionPolicy },
  proof: FactorProof,
  now: number,
): Promise<UserRow> {
  const user = await memberRow(db.db, account.id, session.userId);
  checkFactorThrottle(user, now);
  const done = await db.transaction(async (tx) => {
    let method: string;
    if ('code' in proof) {
      const step = acceptedStep(account, user, proof.code.replace(/\s/g, ''), now);
      if (step === null || !user.totp_enabled_at) return false;
      // The step is taken conditionally: of two requests with one code, one gets it.
      const taken = await tx
        .update(users)
        .set({ totp_last_step: step })
        .where(
          and(
            eq(users.account_id, account.id),
            eq(users.id, user.id),
            user.totp_last_step === null ? sql`true` : eq(users.totp_last_step, user.totp_last_step),
          ),
        )
        .returning({ id: users.id });
      if (!taken.length) return false;
      method = 'totp';
    } else {
      const used = await tx
        .update(recoveryCodes)
        .set({ used_at: iso(now) })
        .where(
          and(
            eq(recoveryCodes.account_id, account.id),
            eq(recoveryCodes.user_id, user.id),
            eq(recoveryCodes.code_hash, sha256(proof.recovery_code.trim().toLowerCase())),
            isNull(recoveryCodes.used_at),
          ),
        )
        .returning({ id: recoveryCodes.id });
      if (!used.length) return false;
      method = 'recovery_code';
    }
    await completeSignIn(tx, account, user, session, method, now);
    return true;
  });
  if (!done) {
    await countFactorFailure(db, account.id, user, now);
    throw new ApiError('unauthenticated', 'That code is not right: check it and try again');
  }
  return user;
}

/** The session is signed in after its second factor: failures forgotten, the sign-in in the activity log. */
export async function completeSignIn(
  tx: Db,
  account: Account,
  user: UserRow,
  session: { id: number; policy: SessionPolicy },
  method: string,
  now: number,
) {
  await tx
    .update(users)
    .set({ factor_failures: 0, factor_failed_at: null, last_sign_in_at: iso(now) })
    .where(and(eq(users.account_id, account.id), eq(users.id, user.id)));
  await advanceSession(tx, account.id, session.id, 'signed_in', now, session.policy);
  await recordActivity(tx, account.id, memberActor(user), 'sessions', user.id, 'second_factor_passed', { method });
}

/**
 * An owner or admin resets a member's second factor (a lost phone): app, passkeys and recovery codes go,
 * and every session of the member ends. With a policy that requires it, they set one up at next sign-in.
 */
export async function resetSecondFactor(db: DbHandle, account: Account, actor: Actor, userId: number) {
  await db.transaction(async (tx) => {
    await memberRow(tx, account.id, userId);
    await tx
      .update(users)
      .set({
        totp_secret: null,
        totp_enabled_at: null,
        totp_last_step: null,
        factor_failures: 0,
        factor_failed_at: null,
      })
      .where(and(eq(users.account_id, account.id), eq(users.id, userId)));
    await tx.delete(passkeys).where(and(eq(passkeys.account_id, account.id), eq(passkeys.user_id, userId)));
    await tx
      .delete(recoveryCodes)
      .where(and(eq(recoveryCodes.account_id, account.id), eq(recoveryCodes.user_id, userId)));
    await endSessionsOf(tx, account.id, userId);
    await recordActivity(tx, account.id, actor, 'users', userId, 'second_factor_reset');
  });
}
