/**
 * Procedures of the steps after the password: a session in the `second_factor` stage may only pass its
 * second factor; one in `enrol` may only set one up (and sign out). Setting up a factor is also open to
 * a signed-in member (Your account): `enrolling` gives either the same context.
 */
import type { SessionPolicy } from '../../auth/sessions';
import { ApiError } from '../../errors';
import { memberActor, type Actor } from '../../events/record';
import { actorOf, portalProcedure } from './base';

const NO_STEP = 'Sign in with your email and password first';

export const secondFactorProcedure = portalProcedure.use(({ ctx, next }) => {
  const step = ctx.portal.step;
  if (!step || step.stage !== 'second_factor' || ctx.portal.sessionId === null)
    throw new ApiError('unauthenticated', NO_STEP);
  return next({ ctx: { step: { ...step, sessionId: ctx.portal.sessionId } } });
});

export interface Enrolling {
  userId: number;
  email: string;
  actor: Actor;
  session: { id: number; policy: SessionPolicy; enrolling: boolean };
}

export const enrollingProcedure = portalProcedure.use(({ ctx, next }) => {
  const sessionId = ctx.portal.sessionId;
  const step = ctx.portal.step;
  let enrolling: Enrolling;
  if (ctx.principal.type === 'user' && sessionId !== null) {
    enrolling = {
      userId: ctx.principal.id,
      email: ctx.principal.email,
      actor: actorOf(ctx.principal),
      session: { id: sessionId, policy: ctx.portal.policy, enrolling: false },
    };
  } else if (step?.stage === 'enrol' && sessionId !== null) {
    enrolling = {
      userId: step.userId,
      email: step.email,
      actor: memberActor({ id: step.userId, name: step.name }),
      session: { id: sessionId, policy: ctx.portal.policy, enrolling: true },
    };
  } else throw new ApiError('unauthenticated', NO_STEP);
  return next({ ctx: { enrolling } });
});
