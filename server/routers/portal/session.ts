/** Sign-in, sign-out and who is signed in. */
import { z } from 'zod';
import { endSession } from '../../auth/sessions';
import { signIn } from '../../auth/sign-in';
import { PERMISSIONS } from '../../auth/permissions';
import { router } from '../../trpc';
import { memberProcedure, portalProcedure } from './base';

export const sessionRouter = router({
  signIn: portalProcedure
    .input(
      z.strictObject({
        email: z.string().trim().min(1, 'Enter your email').max(255),
        password: z.string().min(1, 'Enter your password').max(1000),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { token, user } = await signIn(
        ctx.db,
        ctx.account,
        { ...input, ip: ctx.portal.clientIp, addressKey: ctx.portal.clientKey, userAgent: ctx.portal.userAgent },
        ctx.now(),
        ctx.portal.policy,
      );
      ctx.portal.setSession(token);
      return { name: user.name };
    }),
  signOut: portalProcedure.mutation(async ({ ctx }) => {
    if (ctx.portal.sessionId !== null) await endSession(ctx.db, ctx.account.id, ctx.portal.sessionId);
    ctx.portal.setSession(null);
    return { signed_out: true };
  }),
  me: memberProcedure.query(({ ctx }) => ({
    member: {
      id: ctx.member.id,
      name: ctx.member.name,
      email: ctx.member.email,
      role: ctx.member.role,
      permissions: ctx.member.role === 'owner' ? Object.keys(PERMISSIONS) : ctx.member.permissions,
    },
    // The clinic's zone: the portal shows times in it (named), whatever the browser's zone.
    account: {
      name: ctx.account.name,
      subdomain: ctx.account.subdomain,
      region: ctx.account.region,
      generation: ctx.account.generation,
      timezone: ctx.account.timezone,
    },
    api_base_url: ctx.baseUrl,
  })),
});
