/**
 * Portal procedures: served to the portal's pages over /developers/trpc (server/portal/handler.ts),
 * never on the REST surface (they carry no OpenAPI meta). A member procedure needs a signed-in session;
 * `permitted` adds the one permission check (server/auth/permissions.ts).
 */
import { authorize, type Permission } from '../../auth/permissions';
import type { PortalIO } from '../../context';
import { memberActor } from '../../events/record';
import { ApiError } from '../../errors';
import { procedure } from '../../trpc';
import { refuseBadText } from '../../values/text';

export const SIGN_IN_REQUIRED = 'Sign in to use the developer portal';

/** A portal request, signed in or not; its input holds no NUL (server/values/text.ts). */
export const portalProcedure = procedure.use(async ({ ctx, next, getRawInput }) => {
  if (!ctx.portal) throw new ApiError('not_found', 'Not a portal request');
  refuseBadText(await getRawInput());
  return next({ ctx: { portal: ctx.portal } });
});

/** A signed-in member's request. */
export const memberProcedure = portalProcedure.use(({ ctx, next }) => {
  if (ctx.principal.type !== 'user') throw new ApiError('unauthenticated', SIGN_IN_REQUIRED);
  return next({ ctx: { member: ctx.principal, actor: actorOf(ctx.principal) } });
});

/** A member whose role grants one of the permissions. */
export const permitted = (...permissions: Permission[]) =>
  memberProcedure.meta({ permissions }).use(({ ctx, next }) => {
    authorize(ctx.member, ...permissions);
    return next();
  });

export const actorOf = memberActor;

export type { PortalIO };
