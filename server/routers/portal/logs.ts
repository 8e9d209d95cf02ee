/** The activity log and the request log, read in the portal. */
import { z } from 'zod';
import { ACTIVITY_KIND_NAMES, listActivity } from '../../domain/activity';
import { listRequests, STATUS_CLASSES } from '../../domain/request_log';
import { router } from '../../trpc';
import { permitted } from './base';
import { recordId } from '../../resources/fields';

const PAGE = 25;
const before = recordId.optional();

export const activityRouter = router({
  list: permitted('api_keys.manage', 'team.manage')
    .input(z.strictObject({ kind: z.enum(ACTIVITY_KIND_NAMES).optional(), before }))
    .query(({ ctx, input }) => listActivity(ctx.db.db, ctx.account.id, { ...input, limit: PAGE })),
});

export const requestsRouter = router({
  list: permitted('api_keys.manage')
    .input(
      z.strictObject({
        key_id: recordId.optional(),
        status_class: z.enum(STATUS_CLASSES).optional(),
        path: z.string().max(200).optional(),
        before,
      }),
    )
    .query(({ ctx, input }) => listRequests(ctx.db.db, ctx.account.id, { keyId: input.key_id, statusClass: input.status_class, path: input.path || undefined, before: input.before, limit: PAGE })),
});
