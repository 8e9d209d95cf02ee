/**
 * API key lifecycle: create, rotate, revoke, list. Each change is written to the account activity log,
 * and a rotation or revocation, once committed, empties this process's key cache (immediate here).
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { DbHandle } from '../../db/client';
import { apiKeys, type KeyAccess } from '../../db/schema';
import { forgetCachedKeys } from '../auth/authenticate';
import { displayStart, generateKey, hashSecret } from '../auth/keys';
import type { Account } from '../context';
import { recordActivity, type Actor } from '../events/record';
import { permissionsOf, permissionsOfAccess, type KeyPermissions } from '../auth/key-groups';
import { namesOf } from '../values/keys';

/** A key's access per group, restricted or not. */
export const keyPermissions = (r: { access: KeyAccess; permissions: unknown }): KeyPermissions =>
  r.access === 'restricted' ? permissionsOf(r.permissions) : permissionsOfAccess(r.access);

export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;
/** How long a replaced secret may keep working, as the portal offers it: the spec's 24 h at most. */
export const ROTATION_GRACES = { now: 0, '1h': 60 * 60 * 1000, '24h': ROTATION_GRACE_MS } as const;
export type RotationGrace = keyof typeof ROTATION_GRACES;
export const ROTATION_GRACE_NAMES = namesOf(ROTATION_GRACES);
/** The choice as the portal and the CLI take it (24 h when not given). */
export const rotationGraceInput = z.enum(ROTATION_GRACE_NAMES).default('24h');
export const EXPIRIES = { '90d': 90, '1y': 365 } as const;
export type Expiry = keyof typeof EXPIRIES;

export class KeyError extends Error {}

export interface IssuedKey {
  id: number;
  secret: string;
  /** After a rotation: until when the previous secret still works. */
  previous_valid_until?: string;
}

const activity = (
  db: DbHandle['db'],
  account: Account,
  actor: Actor,
  action: string,
  keyId: number,
  changes?: Record<string, unknown>,
) => recordActivity(db, account.id, actor, 'api_keys', keyId, action, changes);

export async function createKey(
  db: DbHandle,
  account: Account,
  actor: Actor,
  opts: {
    name: string;
    access: KeyAccess;
    /** A restricted key's groups (parsed by permissionsInput); required for `restricted`, refused otherwise. */
    permissions?: KeyPermissions;
    /** Networks the key may call from (parsed by allowedIpsInput); empty or absent: any. */
    allowed_ips?: string[];
    expires?: Expiry;
    format?: 'bare' | 'id_pipe';
    api?: 'v3' | 'legacy';
  },
): Promise<IssuedKey> {
  if ((opts.access === 'restricted') !== (opts.permissions !== undefined))
    throw new KeyError(
      opts.access === 'restricted'
        ? 'a restricted key needs its permissions: which groups it may read or write'
        : 'permissions are for restricted keys; choose access restricted',
    );
  if (account.generation === 'legacy' && (opts.api ?? 'v3') === 'v3') {
    throw new KeyError('this account is not yet native to the current generation and cannot create keys for this API');
  }
  const format = opts.format ?? 'bare';
  const secret = format === 'bare' ? generateKey() : randomBytes(24).toString('hex');
  const now = new Date();
  const expires = opts.expires ? new Date(now.getTime() + EXPIRIES[opts.expires] * 86_400_000).toISOString() : null;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiKeys)
      .values({
        account_id: account.id,
        name: opts.name,
        access: opts.access,
        api: opts.api ?? 'v3',
        format,
        hash: hashSecret(secret),
        start: format === 'bare' ? displayStart(secret) : secret.slice(0, 4),
        expires_at: expires,
        permissions: opts.permissions ?? null,
        allowed_ips: opts.allowed_ips?.length ? opts.allowed_ips : null,
        created_by: actor.actor_name,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .returning({ id: apiKeys.id });
    await activity(tx, account, actor, 'created', row.id, {
      name: opts.name,
      access: opts.access,
      ...(opts.permissions ? { permissions: opts.permissions } : {}),
      ...(opts.allowed_ips?.length ? { allowed_ips: opts.allowed_ips } : {}),
      expires_at: expires,
    });
    return { id: row.id, secret: format === 'bare' ? secret : `${row.id}|${secret}` };
  });
}

async function liveKey(db: DbHandle['db'], account: Account, keyId: number) {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.account_id, account.id), eq(apiKeys.id, keyId), eq(apiKeys.api, 'v3')));
  if (!row) throw new KeyError(`no API key ${keyId} on this account`);
  if (row.revoked_at) throw new KeyError(`API key ${keyId} is revoked`);
  return row;
}

/**
 * A new secret for the same integration, scope and expiry, always a bare `cpk_` key (a key issued as
 * `id|secret` leaves that form here); the old one keeps working for 24 hours. A key holds one previous
 * secret, so a key still in that grace is not rotated again: replacing its previous secret would end,
 * at once, a grace the person was shown.
 */
/** `grace` 'now' ends the previous secret at once (a leaked key), leaving nothing in grace to refuse the next rotation. */
export async function rotateKey(
  db: DbHandle,
  account: Account,
  actor: Actor,
  keyId: number,
  grace: RotationGrace = '24h',
): Promise<IssuedKey> {
  const issued = await db.transaction(async (tx) => {
    const row = await liveKey(tx, account, keyId);
    const now = new Date();
    if (row.expires_at && row.expires_at <= now.toISOString())
      throw new KeyError(`API key ${keyId} has expired and cannot be rotated`);
    if (row.previous_expires_at && row.previous_expires_at > now.toISOString()) {
      throw new KeyError(
        `API key ${keyId} is already rotating: its previous secret keeps working until ${row.previous_expires_at}. Rotate it again after that time, or revoke the key to stop every secret now`,
      );
    }
    const fresh = generateKey();
    const graceEnd = new Date(now.getTime() + ROTATION_GRACES[grace]).toISOString();
    const keepsPrevious = grace !== 'now';
    // Only the secret just read is replaced: a rotation or revocation committed meanwhile (PostgreSQL
    // re-checks this against it) wins, and this one is refused rather than overwriting its grace.
    const replaced = await tx
      .update(apiKeys)
      .set({
        format: 'bare',
        hash: hashSecret(fresh),
        start: displayStart(fresh),
        previous_hash: keepsPrevious ? row.hash : null,
        previous_expires_at: keepsPrevious ? graceEnd : null,
        previous_last_used_at: null,
        rotated_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .where(
        and(
          eq(apiKeys.account_id, account.id),
          eq(apiKeys.id, row.id),
          eq(apiKeys.hash, row.hash),
          isNull(apiKeys.revoked_at),
        ),
      )
      .returning({ id: apiKeys.id });
    if (!replaced.length)
      throw new KeyError(`API key ${keyId} was rotated or revoked at the same moment; list the keys to see its state`);
    await activity(tx, account, actor, 'rotated', row.id, { previous_secret_valid_until: graceEnd });
    return { id: row.id, secret: fresh, previous_valid_until: graceEnd };
  });
  forgetCachedKeys();
  return issued;
}

/** Immediate: the key and any secret still in its rotation grace stop working. */
export async function revokeKey(db: DbHandle, account: Account, actor: Actor, keyId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await liveKey(tx, account, keyId);
    const now = new Date().toISOString();
    await tx
      .update(apiKeys)
      .set({ revoked_at: now, previous_hash: null, previous_expires_at: null, updated_at: now })
      .where(and(eq(apiKeys.account_id, account.id), eq(apiKeys.id, row.id)));
    await activity(tx, account, actor, 'revoked', row.id);
  });
  // After the commit: a lookup from before it must not be cached as current.
  forgetCachedKeys();
}

/** The account's keys, newest first, with what the portal shows: status, rotation grace, last use. */
export async function listKeys(db: DbHandle, account: Account, now = Date.now()) {
  const at = new Date(now).toISOString();
  const rows = await db.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.account_id, account.id), eq(apiKeys.api, 'v3')))
    .orderBy(desc(apiKeys.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    access: r.access,
    /** Per group: none, read or write (every group at the key's access when it is not restricted). */
    permissions: keyPermissions(r),
    /** The networks it may call from; null: any. */
    allowed_ips: r.allowed_ips,
    start: r.start,
    status: r.revoked_at
      ? 'revoked'
      : r.expires_at && r.expires_at <= at
        ? 'expired'
        : r.previous_expires_at && r.previous_expires_at > at
          ? 'rotating'
          : 'active',
    /** While rotating: until when the previous secret still works. */
    previous_valid_until: r.previous_expires_at && r.previous_expires_at > at ? r.previous_expires_at : null,
    /** While rotating: when the previous secret was last used (null: not since the rotation). */
    previous_last_used_at: r.previous_expires_at && r.previous_expires_at > at ? r.previous_last_used_at : null,
    expires_at: r.expires_at,
    created_by: r.created_by,
    last_used_at: r.last_used_at,
    rotated_at: r.rotated_at,
    created_at: r.created_at,
  }));
}
