/**
 * Who a member is, as sign-in, sessions, connectors and the team pages read them: the member's row by id
 * or email (emails compared as normalised), and what their role grants now. The team's changes
 * (server/domain/team.ts) build on these.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { roles, users, type RoleKey } from '../../db/schema';
import type { MemberPrincipal } from '../context';
import { DEFAULT_ROLES, type MemberGrant } from './permissions';

export type UserRow = typeof users.$inferSelect;

export const normalEmail = (email: string) => email.trim().toLowerCase();

/** What a member's role grants right now (roles change in the portal; a session sees the change at once). */
export async function grantOf(db: Db, accountId: number, role: RoleKey): Promise<MemberGrant> {
  const [row] = await db
    .select({ permissions: roles.permissions, record_scope: roles.record_scope })
    .from(roles)
    .where(and(eq(roles.account_id, accountId), eq(roles.key, role)));
  const fallback = DEFAULT_ROLES[role];
  return {
    role,
    permissions: row?.permissions ?? fallback.permissions,
    record_scope: row?.record_scope ?? fallback.record_scope,
  };
}

/** A member as the permission checks see them: who they are and what their role grants. */
export async function memberPrincipal(db: Db, accountId: number, user: UserRow): Promise<MemberPrincipal> {
  const grant = await grantOf(db, accountId, user.role);
  return {
    type: 'user',
    id: user.id,
    name: user.name,
    email: user.email,
    practitioner_id: user.practitioner_id,
    ...grant,
  };
}

/** The member by id if they are still active (connectors act as them at every call), else null. */
export async function activeMember(db: Db, accountId: number, userId: number): Promise<MemberPrincipal | null> {
  const user = await findMember(db, accountId, { id: userId });
  return user?.active ? memberPrincipal(db, accountId, user) : null;
}

export async function findMember(
  db: Db,
  accountId: number,
  by: { id: number } | { email: string },
): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(
      and(eq(users.account_id, accountId), 'id' in by ? eq(users.id, by.id) : eq(users.email, normalEmail(by.email))),
    );
  return row;
}
