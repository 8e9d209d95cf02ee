/** Sign-in (password, then the second factor when the member has one), sign-out and who is signed in. */
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';
import { authenticationOptions, passWithPasskey } from '../../auth/passkeys';
import { PERMISSIONS } from '../../auth/permissions';
import { factorsOf, memberRow, passSecondFactor } from '../../auth/second-factor';
import { endSession } from '../../auth/sessions';
import { signIn } from '../../auth/sign-in';
import { router } from '../../trpc';
import { memberProcedure, portalProcedure } from './base';
import { secondFactorProcedure } from './step';

/**
 * A WebAuthn response as the browser library gives it (T: registration or authentication): its shape is
 * checked here and bounded; what it proves, by @simplewebauthn/server.
 */
export const webauthnResponse = <T extends { id: string }>() =>
  z.custom<T>(
    (v) =>
      typeof v === 'object' &&
      v !== null &&
      'id' in v &&
      typeof v.id === 'string' &&
      'type' in v &&
      v.type === 'public-key' &&
      JSON.stringify(v).length <= 16_384,
    'is not a passkey response',
  );

export const sessionRouter = router({
  signIn: portalProcedure
    .input(
      z.strictObject({
        email: z.string().trim().min(1, 'Enter your email').max(255),
        password: z.string().min(1, 'Enter your password').max(1000),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { token, user, stage, factors } = await signIn(
        ctx.db,
        ctx.account,
        { ...input, ip: ctx.portal.clientIp, addressKey: ctx.portal.clientKey, userAgent: ctx.portal.userAgent },
        ctx.now(),
        ctx.portal.policy,
      );
      ctx.portal.setSession(token);
      return { name: user.name, next: stage, factors: { totp: factors.totp, passkeys: factors.passkeys > 0 } };
    }),
  /** What the session part way through signing in still needs. */
  step: portalProcedure.query(async ({ ctx }) => {
    const step = ctx.portal.step;
    if (!step) return { next: ctx.principal.type === 'user' ? ('signed_in' as const) : ('password' as const) };
    const factors = await factorsOf(ctx.db.db, ctx.account.id, await memberRow(ctx.db.db, ctx.account.id, step.userId));
    return {
      next: step.stage,
      name: step.name,
      factors: { totp: factors.totp, passkeys: factors.passkeys > 0, recovery_codes: factors.recovery_codes_left > 0 },
    };
  }),
  /** The second step with a code from the authenticator app or a recovery code. */
  secondFactor: secondFactorProcedure
    .input(
      z.union([
        z.strictObject({ code: z.string().trim().min(1, 'Enter the code').max(20) }),
        z.strictObject({ recovery_code: z.string().trim().min(1, 'Enter a recovery code').max(40) }),
      ]),
    )
    .mutation(async ({ ctx, input }) => {
      const session = { id: ctx.step.sessionId, userId: ctx.step.userId, policy: ctx.portal.policy };
      const user = await passSecondFactor(ctx.db, ctx.account, session, input, ctx.now());
      return { name: user.name };
    }),
  passkeyOptions: secondFactorProcedure.mutation(({ ctx }) =>
    authenticationOptions(ctx.db, ctx.account, ctx.step.userId, ctx.step.sessionId, ctx.portal.origin),
  ),
  passkey: secondFactorProcedure
    .input(z.strictObject({ response: webauthnResponse<AuthenticationResponseJSON>() }))
    .mutation(async ({ ctx, input }) => {
      const session = { id: ctx.step.sessionId, userId: ctx.step.userId, policy: ctx.portal.policy };
      const user = await passWithPasskey(ctx.db, ctx.account, session, input.response, ctx.portal.origin, ctx.now());
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
