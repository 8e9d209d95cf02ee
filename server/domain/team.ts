/**
 * Team members and roles: the same functions serve the CLI (`clinic user ...`) and the portal. Each
 * change goes to the account activity log. Exactly one owner per account: the owner cannot be
 * deactivated or given another role except by handing ownership to someone else.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Db, DbHandle } from '../../db/client';
import { passkeys, practitioners, roles, users, type RecordScope, type RoleKey } from '../../db/schema';
import { DEFAULT_ROLES, PERMISSION_KEYS, type Permission } from '../auth/permissions';
import { checkPassword } from '../auth/password-rules';
import { hashPassword, NO_PASSWORD } from '../auth/passwords';
import { endSessionsOf } from '../auth/sessions';
import { checkCredentials } from '../auth/sign-in';
import type { Account, MemberPrincipal } from '../context';
import { ApiError, invalid } from '../errors';
import { keysOf } from '../values/keys';
import { findMember, normalEmail, type UserRow } from '../auth/members';
import { memberActor, recordActivity, type Actor } from '../events/record';
import { MEMBER_DEACTIVATED, MEMBER_REACTIVATED, revokeMemberGrants } from '../oauth/revocation';

export interface NewMember {
  name: string;
  email: string;
  role: RoleKey;
  practitioner_id?: number | null;
  /** Absent: the member chooses it through a set-up link (server/auth/password-links.ts). */
  password?: string;
}

const activity = (
  tx: Db,
  account: Account,
  actor: Actor,
  entity: 'users' | 'roles',
  id: number,
  action: string,
  changes?: Record<string, unknown>,
) => recordActivity(tx, account.id, actor, entity, id, action, changes);

/** The roles every account starts with; safe to call again (existing roles are kept as edited). */
export async function ensureRoles(tx: Db, accountId: number): Promise<void> {
  const now = new Date().toISOString();
  const rows = keysOf(DEFAULT_ROLES).map((key) => ({
    account_id: accountId,
    key,
    name: DEFAULT_ROLES[key].name,
    permissions: DEFAULT_ROLES[key].permissions,
    record_scope: DEFAULT_ROLES[key].record_scope,
    created_at: now,
    updated_at: now,
  }));
  await tx.insert(roles).values(rows).onConflictDoNothing();
}

export async function listRoles(db: Db, accountId: number) {
  const rows = await db.select().from(roles).where(eq(roles.account_id, accountId)).orderBy(asc(roles.id));
  return rows.map((r) => ({
    key: r.key,
    name: r.name,
    permissions: r.key === 'owner' ? PERMISSION_KEYS : r.permissions,
    record_scope: r.record_scope,
    editable: r.key !== 'owner',
  }));
}

/**
 * A practitioner a member may be linked to: one of the account's, and not linked to another member (the
 * link decides whose diary "own records only" opens: two members on one record would read each other's).
 */
async function checkPractitioner(
  tx: Db,
  accountId: number,
  practitionerId: number | null | undefined,
  userId?: number,
) {
  if (practitionerId == null) return;
  const [p] = await tx
    .select({ id: practitioners.id })
    .from(practitioners)
    .where(and(eq(practitioners.account_id, accountId), eq(practitioners.id, practitionerId)));
  if (!p) throw invalid('practitioner_id', 'is not a practitioner of this account', 'practitioner_not_found');
  const [linked] = await tx
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(and(eq(users.account_id, accountId), eq(users.practitioner_id, practitionerId)));
  if (linked && linked.id !== userId)
    throw invalid('practitioner_id', `is already linked to ${linked.name}: unlink it there first`, 'invalid_input');
}

export async function createMember(db: DbHandle, account: Account, actor: Actor, m: NewMember) {
  const email = normalEmail(m.email);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 255)
    throw invalid('email', 'must be an email address', 'validation_failed');
  if (!m.name.trim() || m.name.length > 255) throw invalid('name', 'must be 1 to 255 characters', 'validation_failed');
  if (m.password !== undefined) checkPassword(m.password, [email, account.subdomain]);
  const passwordHash = m.password === undefined ? NO_PASSWORD : await hashPassword(m.password);
  return db.transaction(async (tx) => {
    await ensureRoles(tx, account.id);
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.account_id, account.id), eq(users.email, email)));
    if (taken) throw invalid('email', 'is already a member of this account', 'invalid_input');
    if (m.role === 'owner' && (await ownerOf(tx, account.id)))
      throw invalid('role', 'the account has an owner: transfer ownership instead', 'invalid_input');
    await checkPractitioner(tx, account.id, m.practitioner_id);
    const now = new Date().toISOString();
    const [row] = await tx
      .insert(users)
      .values({
        account_id: account.id,
        name: m.name.trim(),
        email,
        role: m.role,
        practitioner_id: m.practitioner_id ?? null,
        active: true,
        password_hash: passwordHash,
        password_changed_at: m.password === undefined ? null : now,
        created_at: now,
        updated_at: now,
      })
      .returning();
    await activity(tx, account, actor, 'users', row.id, 'created', {
      name: row.name,
      email,
      role: m.role,
      practitioner_id: row.practitioner_id,
    });
    return memberView(row);
  });
}

async function ownerOf(tx: Db, accountId: number) {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.account_id, accountId), eq(users.role, 'owner')));
  return row;
}

const memberView = (u: UserRow, hasPasskey = false) => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role,
  practitioner_id: u.practitioner_id,
  active: u.active,
  /** False until the member has chosen a password through their set-up link. */
  password_set: u.password_hash !== NO_PASSWORD,
  /** An authenticator app or a passkey (listMembers knows the passkeys). */
  two_factor: Boolean(u.totp_enabled_at) || hasPasskey,
  last_sign_in_at: u.last_sign_in_at,
  created_at: u.created_at,
});
export type Member = ReturnType<typeof memberView>;

export async function listMembers(db: Db, accountId: number): Promise<Member[]> {
  const rows = await db.select().from(users).where(eq(users.account_id, accountId)).orderBy(asc(users.id));
  const withPasskey = new Set(
    (
      await db.selectDistinct({ user_id: passkeys.user_id }).from(passkeys).where(eq(passkeys.account_id, accountId))
    ).map((r) => r.user_id),
  );
  return rows.map((u) => memberView(u, withPasskey.has(u.id)));
}

async function memberOrFail(tx: Db, accountId: number, id: number) {
  const row = await findMember(tx, accountId, { id });
  if (!row) throw new ApiError('not_found', 'No such team member');
  return row;
}

/** A new role for a member; the owner's role changes only by transferring ownership. */
export async function setRole(db: DbHandle, account: Account, actor: Actor, userId: number, role: RoleKey) {
  return db.transaction(async (tx) => {
    const before = await memberOrFail(tx, account.id, userId);
    if (before.role === 'owner')
      throw new ApiError('conflict', 'The owner keeps the owner role: transfer ownership to another member first');
    if (role === 'owner') throw invalid('role', 'ownership is transferred, not assigned', 'invalid_input');
    if (before.role === role) return memberView(before);
    const [row] = await tx
      .update(users)
      .set({ role, updated_at: new Date().toISOString() })
      .where(and(eq(users.account_id, account.id), eq(users.id, userId)))
      .returning();
    // Sessions end: the member signs in again under the new role (and its two-factor rule).
    await endSessionsOf(tx, account.id, userId);
    await activity(tx, account, actor, 'users', userId, 'role_changed', { role: { from: before.role, to: role } });
    return memberView(row);
  });
}

/**
 * Deactivating ends the member's sessions and revokes their AI connectors (OAuth grants) at once; the
 * owner cannot be deactivated. Reactivating gives back the sign-in, never the connectors: the member
 * approves each app again (grants still live from a deactivation before this rule are revoked then).
 */
export async function setActive(db: DbHandle, account: Account, actor: Actor, userId: number, active: boolean) {
  return db.transaction(async (tx) => {
    const before = await memberOrFail(tx, account.id, userId);
    if (!active && before.role === 'owner')
      throw new ApiError('conflict', 'The owner cannot be deactivated: transfer ownership first');
    if (before.active === active) return memberView(before);
    const now = new Date().toISOString();
    const [row] = await tx
      .update(users)
      .set({ active, deactivated_at: active ? null : now, updated_at: now })
      .where(and(eq(users.account_id, account.id), eq(users.id, userId)))
      .returning();
    if (!active) await endSessionsOf(tx, account.id, userId);
    await revokeMemberGrants(tx, account.id, actor, userId, active ? MEMBER_REACTIVATED : MEMBER_DEACTIVATED, now);
    await activity(tx, account, actor, 'users', userId, active ? 'reactivated' : 'deactivated');
    return memberView(row);
  });
}

/** The owner hands the account to another active member, and becomes an admin. */
export async function transferOwnership(db: DbHandle, account: Account, actor: Actor, fromId: number, toId: number) {
  return db.transaction(async (tx) => {
    const from = await memberOrFail(tx, account.id, fromId);
    const to = await memberOrFail(tx, account.id, toId);
    if (from.role !== 'owner') throw new ApiError('permission_denied', 'Only the owner can transfer ownership');
    if (!to.active) throw invalid('user_id', 'is deactivated: reactivate them first', 'invalid_input');
    if (from.id === to.id) return;
    const now = new Date().toISOString();
    await tx
      .update(users)
      .set({ role: 'admin', updated_at: now })
      .where(and(eq(users.account_id, account.id), eq(users.id, from.id)));
    await tx
      .update(users)
      .set({ role: 'owner', updated_at: now })
      .where(and(eq(users.account_id, account.id), eq(users.id, to.id)));
    await activity(tx, account, actor, 'users', to.id, 'ownership_transferred', { from: from.email, to: to.email });
  });
}

/** An admin edits what a role may do; the owner role always has everything. */
export async function updateRole(
  db: DbHandle,
  account: Account,
  actor: Actor,
  key: RoleKey,
  change: { permissions: Permission[]; record_scope: RecordScope },
) {
  if (key === 'owner') throw new ApiError('conflict', 'The owner role always has every permission');
  return db.transaction(async (tx) => {
    await ensureRoles(tx, account.id);
    const [before] = await tx
      .select()
      .from(roles)
      .where(and(eq(roles.account_id, account.id), eq(roles.key, key)));
    const permissions = PERMISSION_KEYS.filter((p) => change.permissions.includes(p));
    const [row] = await tx
      .update(roles)
      .set({ permissions, record_scope: change.record_scope, updated_at: new Date().toISOString() })
      .where(and(eq(roles.account_id, account.id), eq(roles.key, key)))
      .returning();
    const added = permissions.filter((p) => !before.permissions.includes(p));
    const removed = before.permissions.filter((p) => !permissions.some((kept) => kept === p));
    await activity(tx, account, actor, 'roles', row.id, 'updated', {
      role: key,
      added,
      removed,
      record_scope: { from: before.record_scope, to: row.record_scope },
    });
    return {
      key: row.key,
      name: row.name,
      permissions: row.permissions,
      record_scope: row.record_scope,
      editable: true,
    };
  });
}

/** A new password for a member, set by the operator (the demo's owner on every `npm run demo`); their sessions end. */
export async function resetPassword(db: DbHandle, account: Account, actor: Actor, userId: number, password: string) {
  const member = await memberOrFail(db.db, account.id, userId);
  checkPassword(password, [member.email, account.subdomain]);
  const hash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const now = new Date().toISOString();
    await tx
      .update(users)
      .set({ password_hash: hash, password_changed_at: now, updated_at: now })
      .where(and(eq(users.account_id, account.id), eq(users.id, userId)));
    await endSessionsOf(tx, account.id, userId);
    await activity(tx, account, actor, 'users', userId, 'password_reset');
  });
}

/**
 * A member changes their own password: the current one is checked like a sign-in (counted and
 * throttled), the new one against the rules; every other session of theirs ends, this one stays.
 */
export async function changePassword(
  db: DbHandle,
  account: Account,
  member: MemberPrincipal,
  change: { current: string; next: string; addressKey: string; keepSession: number },
  now: number,
) {
  try {
    await checkCredentials(
      db,
      account.id,
      { email: member.email, password: change.current, addressKey: change.addressKey },
      now,
    );
  } catch (err) {
    if (err instanceof ApiError && err.code === 'unauthenticated')
      throw invalid('current_password', 'is not your current password', 'invalid_input');
    throw err;
  }
  checkPassword(change.next, [member.email, account.subdomain], 'new_password');
  const hash = await hashPassword(change.next);
  return db.transaction(async (tx) => {
    const at = new Date(now).toISOString();
    await tx
      .update(users)
      .set({ password_hash: hash, password_changed_at: at, updated_at: at })
      .where(and(eq(users.account_id, account.id), eq(users.id, member.id)));
    const ended = await endSessionsOf(tx, account.id, member.id, change.keepSession);
    await activity(tx, account, memberActor(member), 'users', member.id, 'password_changed', {
      sessions_ended: ended,
    });
    return { sessions_ended: ended };
  });
}

/** The practitioner record a member is linked to (whose diary "own records only" opens), or none. */
export async function setPractitioner(
  db: DbHandle,
  account: Account,
  actor: Actor,
  userId: number,
  practitionerId: number | null,
) {
  return db.transaction(async (tx) => {
    const before = await memberOrFail(tx, account.id, userId);
    if (before.practitioner_id === practitionerId) return memberView(before);
    await checkPractitioner(tx, account.id, practitionerId, userId);
    const [row] = await tx
      .update(users)
      .set({ practitioner_id: practitionerId, updated_at: new Date().toISOString() })
      .where(and(eq(users.account_id, account.id), eq(users.id, userId)))
      .returning();
    // A connector acting as the member reads by the new link at its next call; sessions read it per request.
    await activity(tx, account, actor, 'users', userId, 'practitioner_changed', {
      practitioner_id: { from: before.practitioner_id, to: practitionerId },
    });
    return memberView(row);
  });
}
