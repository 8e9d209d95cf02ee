/** API keys in the portal (Manage API keys): the same domain functions as `clinic key ...`. */
import { z } from 'zod';
import { createKey, KeyError, listKeys, revokeKey, rotateKey, rotationGraceInput } from '../../domain/api_keys';
import { ApiError } from '../../errors';
import { allowedIpsInput, permissionsInput } from '../../auth/key-permissions';
import { router } from '../../trpc';
import { permitted } from './base';
import { recordId } from '../../resources/fields';

const keyId = z.strictObject({ id: recordId });

/** The domain's refusals (legacy account, expired or revoked key) as the API's 409. */
async function refusing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof KeyError)
      throw new ApiError(
        'conflict',
        err.message.replace(/^./, (c) => c.toUpperCase()),
      );
    throw err;
  }
}

const manage = permitted('api_keys.manage');

export const keysRouter = router({
  list: manage.query(async ({ ctx }) => ({
    data: await listKeys(ctx.db, ctx.account, ctx.now()),
    can_create: ctx.account.generation === 'current',
  })),
  create: manage
    .input(
      z
        .strictObject({
          name: z.string().trim().min(1, 'Name the integration').max(255),
          access: z.enum(['read_write', 'read_only', 'restricted']),
          /** Restricted keys only: per group, none, read or write. */
          permissions: permissionsInput.optional(),
          allowed_ips: allowedIpsInput.optional(),
          expires: z.enum(['never', '90d', '1y']),
        })
        .refine((k) => k.access !== 'restricted' || k.permissions, {
          path: ['permissions'],
          message: 'Choose what the restricted key may read or write',
        }),
    )
    .mutation(({ ctx, input }) =>
      refusing(() =>
        createKey(ctx.db, ctx.account, ctx.actor, {
          name: input.name,
          access: input.access,
          permissions: input.access === 'restricted' ? input.permissions : undefined,
          allowed_ips: input.allowed_ips,
          expires: input.expires === 'never' ? undefined : input.expires,
        }),
      ),
    ),
  // grace: how long the replaced secret keeps working (Stripe's choice, within the spec's 24 h); 24 h when not given.
  rotate: manage
    .input(
      z.strictObject({
        id: recordId,
        grace: rotationGraceInput,
      }),
    )
    .mutation(({ ctx, input }) => refusing(() => rotateKey(ctx.db, ctx.account, ctx.actor, input.id, input.grace))),
  revoke: manage.input(keyId).mutation(async ({ ctx, input }) => {
    await refusing(() => revokeKey(ctx.db, ctx.account, ctx.actor, input.id));
    return { revoked: true };
  }),
});
