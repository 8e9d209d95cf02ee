/** The team (Manage team): members, their roles and what each role may do. */
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { practitioners, RECORD_SCOPES, ROLE_KEYS, TWO_FACTOR_POLICIES } from '../../../db/schema';
import { sendLink } from '../../auth/password-links';
import { NO_PASSWORD } from '../../auth/passwords';
import { policyOf, resetSecondFactor, setPolicy } from '../../auth/second-factor';
import { findMember } from '../../auth/members';
import { endSessionsOf, listSessions } from '../../auth/sessions';
import { recordActivity } from '../../events/record';
import { PERMISSION_KEYS, PERMISSIONS } from '../../auth/permissions';
import {
  createMember,
  listMembers,
  listRoles,
  setActive,
  setPractitioner,
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
    two_factor_policy: await policyOf(ctx.db.db, ctx.account.id),
    emails_links: ctx.portal.mailer !== null,
    roles: await listRoles(ctx.db.db, ctx.account.id),
    permissions: PERMISSION_KEYS.map((key) => ({ key, label: PERMISSIONS[key] })),
    practitioners: await ctx.db.db
      .select({ id: practitioners.id, name: practitioners.first_name, last_name: practitioners.last_name })
      .from(practitioners)
      .where(eq(practitioners.account_id, ctx.account.id))
      .orderBy(asc(practitioners.id)),
  })),
  /**
   * A new member, who chooses their own password through a set-up link: emailed when SMTP is set up,
   * else returned once for the admin to hand over. Nobody else ever knows the password.
   */
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
      const member = await createMember(ctx.db, ctx.account, ctx.actor, input);
      const link = await sendLink(ctx.db, ctx.account, ctx.actor, member.id, 'setup', {
        origin: ctx.portal.origin,
        mailer: ctx.portal.mailer,
        now: ctx.now(),
      });
      return { member, link };
    }),
  /** A new one-time link for a member: set-up while they have no password yet, else a password reset. */
  sendLink: manage.input(z.strictObject({ user_id: userId })).mutation(async ({ ctx, input }) => {
    const member = await findMember(ctx.db.db, ctx.account.id, { id: input.user_id });
    const purpose = member?.password_hash === NO_PASSWORD ? 'setup' : 'reset';
    return sendLink(ctx.db, ctx.account, ctx.actor, input.user_id, purpose, {
      origin: ctx.portal.origin,
      mailer: ctx.portal.mailer,
      now: ctx.now(),
    });
  }),
  setPractitioner: manage
    .input(z.strictObject({ user_id: userId, practitioner_id: recordId.nullable() }))
    .mutation(({ ctx, input }) =>
      setPractitioner(ctx.db, ctx.account, ctx.actor, input.user_id, input.practitioner_id),
    ),
  resetSecondFactor: manage.input(z.strictObject({ user_id: userId })).mutation(async ({ ctx, input }) => {
    await resetSecondFactor(ctx.db, ctx.account, ctx.actor, input.user_id);
    return { reset: true };
  }),
  sessions: manage
    .input(z.strictObject({ user_id: userId }))
    .query(({ ctx, input }) => listSessions(ctx.db.db, ctx.account.id, input.user_id, ctx.now(), ctx.portal.policy)),
  endSessions: manage.input(z.strictObject({ user_id: userId })).mutation(async ({ ctx, input }) => {
    const ended = await ctx.db.transaction(async (tx) => {
      const n = await endSessionsOf(tx, ctx.account.id, input.user_id);
      await recordActivity(tx, ctx.account.id, ctx.actor, 'sessions', input.user_id, 'ended', { sessions: n });
      return n;
    });
    return { ended };
  }),
  setPolicy: manage
    .input(z.strictObject({ two_factor_policy: z.enum(TWO_FACTOR_POLICIES) }))
    .mutation(async ({ ctx, input }) => {
      await setPolicy(ctx.db, ctx.account, ctx.actor, input.two_factor_policy);
      return { two_factor_policy: input.two_factor_policy };
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
