/** The team (Manage team): members, their roles and what each role may do. */
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { practitioners, RECORD_SCOPES, ROLE_KEYS } from '../../../db/schema';
import { generatePassword } from '../../auth/passwords';
import { PERMISSION_KEYS, PERMISSIONS } from '../../auth/permissions';
import {
  createMember,
  listMembers,
  listRoles,
  setActive,
  setRole,
  transferOwnership,
  updateRole,
} from '../../domain/team';
import { router } from '../../trpc';
import { memberProcedure, permitted } from './base';
import { recordId } from '../../resources/fields';

const manage = permitted('team.manage');
const userId = recordId;
const assignable = z.enum(ROLE_KEYS).exclude(['owner']);

export const teamRouter = router({
  list: manage.query(async ({ ctx }) => ({
    members: await listMembers(ctx.db.db, ctx.account.id),
    roles: await listRoles(ctx.db.db, ctx.account.id),
    permissions: PERMISSION_KEYS.map((key) => ({ key, label: PERMISSIONS[key] })),
    practitioners: await ctx.db.db
      .select({ id: practitioners.id, name: practitioners.first_name, last_name: practitioners.last_name })
      .from(practitioners)
      .where(eq(practitioners.account_id, ctx.account.id))
      .orderBy(asc(practitioners.id)),
  })),
  /** A new member with a generated password, shown once to the admin who hands it over. */
  create: manage
    .input(
      z.strictObject({
        name: z.string().trim().min(1, 'Enter a name').max(255),
        email: z.email('Enter an email address').max(255),
        role: assignable,
        practitioner_id: recordId.nullable().optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const password = generatePassword();
      const member = await createMember(ctx.db, ctx.account, ctx.actor, { ...input, password });
      return { member, password };
    }),
  setRole: manage
    .input(z.strictObject({ user_id: userId, role: assignable }))
    .mutation(({ ctx, input }) => setRole(ctx.db, ctx.account, ctx.actor, input.user_id, input.role)),
  setActive: manage
    .input(z.strictObject({ user_id: userId, active: z.boolean() }))
    .mutation(({ ctx, input }) => setActive(ctx.db, ctx.account, ctx.actor, input.user_id, input.active)),
  /** Only the owner hands over ownership (checked by the domain). */
  transferOwnership: memberProcedure.input(z.strictObject({ user_id: userId })).mutation(async ({ ctx, input }) => {
    await transferOwnership(ctx.db, ctx.account, ctx.actor, ctx.member.id, input.user_id);
    return { transferred: true };
  }),
  updateRole: manage
    .input(
      z.strictObject({
        key: assignable,
        permissions: z.array(z.enum(PERMISSION_KEYS)).max(PERMISSION_KEYS.length),
        record_scope: z.enum(RECORD_SCOPES),
      }),
    )
    .mutation(({ ctx, input }) => updateRole(ctx.db, ctx.account, ctx.actor, input.key, input)),
});
