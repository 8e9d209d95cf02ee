/**
 * Passkeys (WebAuthn) as a second factor, through @simplewebauthn/server: the relying party is the
 * clinic's host (its portal origin), so a passkey made for one clinic works only there. Each ceremony's
 * challenge is kept on the session that asked for it and used once. The signature counter is kept and
 * must grow when the authenticator keeps one (a cloned key shows an old count).
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { and, asc, eq } from 'drizzle-orm';
import type { Db, DbHandle } from '../../db/client';
import { passkeys, sessions } from '../../db/schema';
import type { Account } from '../context';
import { ApiError, invalid } from '../errors';
import { recordActivity, type Actor } from '../events/record';
import { completeSignIn, countFactorFailure, checkFactorThrottle, finishEnrolment, memberRow } from './second-factor';
import type { SessionPolicy } from './sessions';

export const PASSKEYS_MAX = 10;
const iso = (ms: number) => new Date(ms).toISOString();
const rpId = (origin: string) => new URL(origin).hostname;

async function keysOf(db: Db, accountId: number, userId: number) {
  return db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.account_id, accountId), eq(passkeys.user_id, userId)))
    .orderBy(asc(passkeys.id));
}

export async function listPasskeys(db: Db, accountId: number, userId: number) {
  return (await keysOf(db, accountId, userId)).map((k) => ({
    id: k.id,
    name: k.name,
    created_at: k.created_at,
    last_used_at: k.last_used_at,
  }));
}

async function keepChallenge(db: DbHandle, accountId: number, sessionId: number, challenge: string | null) {
  await db.transaction((tx) =>
    tx
      .update(sessions)
      .set({ challenge })
      .where(and(eq(sessions.account_id, accountId), eq(sessions.id, sessionId))),
  );
}

/** The challenge a session holds, taken (a ceremony's challenge is used once, right or wrong). */
async function takeChallenge(db: DbHandle, accountId: number, sessionId: number): Promise<string> {
  const [row] = await db.db
    .select({ challenge: sessions.challenge })
    .from(sessions)
    .where(and(eq(sessions.account_id, accountId), eq(sessions.id, sessionId)));
  if (!row?.challenge) throw new ApiError('conflict', 'Start again: no passkey request is waiting');
  await keepChallenge(db, accountId, sessionId, null);
  return row.challenge;
}

/** Options for the browser to create a passkey for the member (navigator.credentials.create). */
export async function registrationOptions(
  db: DbHandle,
  account: Account,
  userId: number,
  sessionId: number,
  origin: string,
) {
  const user = await memberRow(db.db, account.id, userId);
  const existing = await keysOf(db.db, account.id, userId);
  if (existing.length >= PASSKEYS_MAX)
    throw new ApiError('conflict', `A member can have at most ${PASSKEYS_MAX} passkeys`);
  const options = await generateRegistrationOptions({
    rpName: `${account.name} (Clinic API)`,
    rpID: rpId(origin),
    userName: user.email,
    userDisplayName: user.name,
    attestationType: 'none',
    excludeCredentials: existing.map((k) => ({
      id: k.credential_id,
      transports: k.transports as AuthenticatorTransport[],
    })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await keepChallenge(db, account.id, sessionId, options.challenge);
  return options;
}

/** Keeps the passkey the browser created, under the member's name for it; the first factor brings recovery codes. */
export async function registerPasskey(
  db: DbHandle,
  account: Account,
  actor: Actor,
  userId: number,
  session: { id: number; policy: SessionPolicy; enrolling: boolean },
  input: { name: string; response: RegistrationResponseJSON },
  origin: string,
  now: number,
) {
  const expectedChallenge = await takeChallenge(db, account.id, session.id);
  const verification = await verifyRegistrationResponse({
    response: input.response,
    expectedChallenge,
    expectedOrigin: origin,
    expectedRPID: rpId(origin),
    requireUserVerification: false,
  }).catch(() => null);
  if (!verification?.verified || !verification.registrationInfo)
    throw invalid('response', 'is not a passkey this page asked for: try again', 'validation_failed');
  const { credential } = verification.registrationInfo;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(passkeys)
      .values({
        account_id: account.id,
        user_id: userId,
        name: input.name,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
        created_at: iso(now),
      })
      .onConflictDoNothing()
      .returning({ id: passkeys.id });
    if (!row) throw new ApiError('conflict', 'This passkey is already registered');
    await recordActivity(tx, account.id, actor, 'users', userId, 'passkey_added', { name: input.name });
    const done = await finishEnrolment(tx, account, actor, userId, now, session.enrolling ? session : undefined);
    return { id: row.id, ...done };
  });
}

export async function renamePasskey(
  db: DbHandle,
  account: Account,
  actor: Actor,
  userId: number,
  id: number,
  name: string,
) {
  await db.transaction(async (tx) => {
    const renamed = await tx
      .update(passkeys)
      .set({ name })
      .where(and(eq(passkeys.account_id, account.id), eq(passkeys.user_id, userId), eq(passkeys.id, id)))
      .returning({ id: passkeys.id });
    if (!renamed.length) throw new ApiError('not_found', 'No such passkey');
    await recordActivity(tx, account.id, actor, 'users', userId, 'passkey_renamed', { name });
  });
}

export async function removePasskey(
  db: DbHandle,
  account: Account,
  actor: Actor,
  userId: number,
  id: number,
  mayLeaveNone: boolean,
) {
  await db.transaction(async (tx) => {
    const keys = await keysOf(tx, account.id, userId);
    const key = keys.find((k) => k.id === id);
    if (!key) throw new ApiError('not_found', 'No such passkey');
    if (!mayLeaveNone && keys.length === 1)
      throw new ApiError(
        'conflict',
        'The clinic requires two-factor sign-in for you: add another factor before removing the last one',
      );
    await tx.delete(passkeys).where(and(eq(passkeys.account_id, account.id), eq(passkeys.id, id)));
    await recordActivity(tx, account.id, actor, 'users', userId, 'passkey_removed', { name: key.name });
  });
}

/** Options for the second step of signing in with one of the member's passkeys. */
export async function authenticationOptions(
  db: DbHandle,
  account: Account,
  userId: number,
  sessionId: number,
  origin: string,
) {
  const keys = await keysOf(db.db, account.id, userId);
  if (!keys.length)
    throw new ApiError('conflict', 'You have no passkey: use your authenticator app or a recovery code');
  const options = await generateAuthenticationOptions({
    rpID: rpId(origin),
    allowCredentials: keys.map((k) => ({ id: k.credential_id, transports: k.transports as AuthenticatorTransport[] })),
    userVerification: 'preferred',
  });
  await keepChallenge(db, account.id, sessionId, options.challenge);
  return options;
}

/** The second step with a passkey: the session is signed in, or the failure counts like a wrong code. */
export async function passWithPasskey(
  db: DbHandle,
  account: Account,
  session: { id: number; userId: number; policy: SessionPolicy },
  response: AuthenticationResponseJSON,
  origin: string,
  now: number,
) {
  const user = await memberRow(db.db, account.id, session.userId);
  checkFactorThrottle(user, now);
  const expectedChallenge = await takeChallenge(db, account.id, session.id);
  const key = (await keysOf(db.db, account.id, user.id)).find((k) => k.credential_id === response.id);
  const verification = key
    ? await verifyAuthenticationResponse({
        response,
        expectedChallenge,
        expectedOrigin: origin,
        expectedRPID: rpId(origin),
        credential: {
          id: key.credential_id,
          publicKey: Buffer.from(key.public_key, 'base64url'),
          counter: key.counter,
          transports: key.transports as AuthenticatorTransport[],
        },
        requireUserVerification: false,
      }).catch(() => null)
    : null;
  if (!key || !verification?.verified) {
    await countFactorFailure(db, account.id, user, now);
    throw new ApiError('unauthenticated', 'That passkey was not accepted: try again or use another way');
  }
  await db.transaction(async (tx) => {
    await tx
      .update(passkeys)
      .set({ counter: verification.authenticationInfo.newCounter, last_used_at: iso(now) })
      .where(and(eq(passkeys.account_id, account.id), eq(passkeys.id, key.id)));
    await completeSignIn(tx, account, user, session, 'passkey', now);
  });
  return user;
}
