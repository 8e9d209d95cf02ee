/** The page a set-up or reset link opens: what the link is for, and choosing the password (no session needed). */
import { z } from 'zod';
import { describeLink, useLink } from '../../auth/password-links';
import { PASSWORD_MAX } from '../../auth/password-rules';
import { router } from '../../trpc';
import { portalProcedure } from './base';

const token = z.string().trim().min(20, 'This link is incomplete: copy all of it').max(100);

export const passwordRouter = router({
  describe: portalProcedure
    .input(z.strictObject({ token }))
    .query(({ ctx, input }) => describeLink(ctx.db.db, ctx.account, input.token, ctx.now())),
  set: portalProcedure
    .input(
      z.strictObject({
        token,
        password: z
          .string()
          .min(1, 'Choose a password')
          .max(PASSWORD_MAX * 4),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { email } = await useLink(ctx.db, ctx.account, input.token, input.password, ctx.now());
      // Signed out here whatever session the browser had: the member signs in with the new password.
      ctx.portal.setSession(null);
      return { email };
    }),
});
