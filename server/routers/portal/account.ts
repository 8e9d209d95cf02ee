/**
 * Your account: a member's own password, second factors and sessions. Setting up a second factor is open
 * to a session in the `enrol` stage too (the clinic requires one and the member has none yet).
 */
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { sessions } from '../../../db/schema';
import { listPasskeys, registerPasskey, registrationOptions, removePasskey, renamePasskey } from '../../auth/passkeys';
import { PASSWORD_MAX } from '../../auth/password-rules';
import {
  confirmTotp,
  factorsOf,
  hasSecondFactor,
  memberRow,
  newRecoveryCodes,
  policyOf,
  policyRequires,
  removeTotp,
  startTotp,
} from '../../auth/second-factor';
import { endSession, endSessionsOf, listSessions } from '../../auth/sessions';
import { changePassword } from '../../domain/team';
import { ApiError } from '../../errors';
import { recordActivity } from '../../events/record';
import { recordId } from '../../resources/fields';
import { router } from '../../trpc';
import { memberProcedure } from './base';
import { webauthnResponse } from './session';
import { enrollingProcedure } from './step';

const passkeyName = z.string().trim().min(1, 'Name the passkey').max(100);

export const accountRouter = router({
  overview: memberProcedure.query(async ({ ctx }) => {
    const user = await memberRow(ctx.db.db, ctx.account.id, ctx.member.id);
    const factors = await factorsOf(ctx.db.db, ctx.account.id, user);
    const policy = await policyOf(ctx.db.db, ctx.account.id);
    return {
      password_changed_at: user.password_changed_at,
      totp: factors.totp,
      recovery_codes_left: factors.recovery_codes_left,
      passkeys: await listPasskeys(ctx.db.db, ctx.account.id, ctx.member.id),
      two_factor_required: policyRequires(policy, ctx.member.role),
      sessions: (await listSessions(ctx.db.db, ctx.account.id, ctx.member.id, ctx.now(), ctx.portal.policy)).map(
        (s) => ({
          ...s,
          current: s.id === ctx.portal.sessionId,
        }),
      ),
    };
  }),
  changePassword: memberProcedure
    .input(
      z.strictObject({
        current_password: z.string().min(1, 'Enter your current password').max(1000),
        new_password: z
          .string()
          .min(1, 'Choose a new password')
          .max(PASSWORD_MAX * 4),
      }),
    )
    .mutation(({ ctx, input }) =>
      changePassword(
        ctx.db,
        ctx.account,
        ctx.member,
        {
          current: input.current_password,
          next: input.new_password,
          addressKey: ctx.portal.clientKey,
          keepSession: ctx.portal.sessionId!,
        },
        ctx.now(),
      ),
    ),
  totpStart: enrollingProcedure.mutation(({ ctx }) => startTotp(ctx.db, ctx.account, ctx.enrolling.userId)),
  totpConfirm: enrollingProcedure
    .input(z.strictObject({ code: z.string().trim().min(1, 'Enter the code the app shows').max(20) }))
    .mutation(({ ctx, input }) =>
      confirmTotp(
        ctx.db,
        ctx.account,
        ctx.enrolling.actor,
        ctx.enrolling.userId,
        input.code,
        ctx.now(),
        ctx.enrolling.session.enrolling ? ctx.enrolling.session : undefined,
      ),
    ),
  totpRemove: memberProcedure.mutation(async ({ ctx }) => {
    await removeTotp(ctx.db, ctx.account, ctx.actor, ctx.member.id);
    return { removed: true };
  }),
  recoveryCodes: memberProcedure.mutation(async ({ ctx }) => {
    const user = await memberRow(ctx.db.db, ctx.account.id, ctx.member.id);
    if (!hasSecondFactor(await factorsOf(ctx.db.db, ctx.account.id, user)))
      throw new ApiError('conflict', 'Set up an authenticator app or a passkey first');
    const codes = await ctx.db.transaction((tx) =>
      newRecoveryCodes(tx, ctx.account.id, ctx.actor, ctx.member.id, ctx.now()),
    );
    return { recovery_codes: codes };
  }),
  passkeyOptions: enrollingProcedure.mutation(({ ctx }) =>
    registrationOptions(ctx.db, ctx.account, ctx.enrolling.userId, ctx.enrolling.session.id, ctx.portal.origin),
  ),
  passkeyAdd: enrollingProcedure
    .input(z.strictObject({ name: passkeyName, response: webauthnResponse<RegistrationResponseJSON>() }))
    .mutation(({ ctx, input }) =>
      registerPasskey(
        ctx.db,
        ctx.account,
        ctx.enrolling.actor,
        ctx.enrolling.userId,
        ctx.enrolling.session,
        input,
        ctx.portal.origin,
        ctx.now(),
      ),
    ),
  passkeyRename: memberProcedure
    .input(z.strictObject({ id: recordId, name: passkeyName }))
    .mutation(async ({ ctx, input }) => {
      await renamePasskey(ctx.db, ctx.account, ctx.actor, ctx.member.id, input.id, input.name);
      return { renamed: true };
    }),
  passkeyRemove: memberProcedure.input(z.strictObject({ id: recordId })).mutation(async ({ ctx, input }) => {
    const user = await memberRow(ctx.db.db, ctx.account.id, ctx.member.id);
    const required = policyRequires(await policyOf(ctx.db.db, ctx.account.id), ctx.member.role);
    await removePasskey(
      ctx.db,
      ctx.account,
      ctx.actor,
      ctx.member.id,
      input.id,
      !required || Boolean(user.totp_enabled_at),
    );
    return { removed: true };
  }),
  /** Ends one of the member's own sessions (another device), or all but this one. */
  endSession: memberProcedure.input(z.strictObject({ id: recordId })).mutation(async ({ ctx, input }) => {
    const [own] = await ctx.db.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(
        and(eq(sessions.account_id, ctx.account.id), eq(sessions.user_id, ctx.member.id), eq(sessions.id, input.id)),
      );
    if (!own) throw new ApiError('not_found', 'No such session');
    await endSession(ctx.db, ctx.account.id, input.id);
    if (input.id === ctx.portal.sessionId) ctx.portal.setSession(null);
    return { ended: 1 };
  }),
  endOtherSessions: memberProcedure.mutation(async ({ ctx }) => {
    const ended = await ctx.db.transaction(async (tx) => {
      const n = await endSessionsOf(tx, ctx.account.id, ctx.member.id, ctx.portal.sessionId!);
      await recordActivity(tx, ctx.account.id, ctx.actor, 'sessions', ctx.member.id, 'ended', { sessions: n });
      return n;
    });
    return { ended };
  }),
});
