/** The activity log and the request log, read in the portal. */
import { z } from 'zod';
import { ACTIVITY_KIND_NAMES, activityMembers, exportActivity, listActivity } from '../../domain/activity';
import { listRequests, STATUS_CLASSES } from '../../domain/request_log';
import { router } from '../../trpc';
import { permitted } from './base';
import { recordId } from '../../resources/fields';

const PAGE = 25;
const before = recordId.optional();

const readActivity = permitted('api_keys.manage', 'team.manage');
/** A calendar day in the clinic's zone, as a date input gives it. */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD').refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'Enter a real date');
const activityFilters = z.strictObject({ kind: z.enum(ACTIVITY_KIND_NAMES).optional(), member_id: recordId.optional(), from: day.optional(), to: day.optional(), before });
const filtersOf = (input: z.infer<typeof activityFilters>) => ({ kind: input.kind, memberId: input.member_id, from: input.from, to: input.to, before: input.before });

export const activityRouter = router({
  list: readActivity.input(activityFilters).query(({ ctx, input }) => listActivity(ctx.db.db, ctx.account.id, ctx.account.timezone, { ...filtersOf(input), limit: PAGE })),
  /** The filtered entries as a CSV download (server-side, so it holds exactly what the list shows, beyond the loaded pages). */
  export: readActivity.input(activityFilters.omit({ before: true })).query(({ ctx, input }) => exportActivity(ctx.db.db, ctx.account.id, ctx.account.timezone, filtersOf(input))),
  /** Who the member filter offers. */
  members: readActivity.query(async ({ ctx }) => ({ data: await activityMembers(ctx.db.db, ctx.account.id) })),
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
