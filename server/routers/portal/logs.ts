/** The activity log, read in the portal (the request log: ./requests.ts). */
import { z } from 'zod';
import { CALENDAR_RULE, isCalendarDay } from '../../values/calendar';
import { ACTIVITY_KIND_NAMES, activityMembers, exportActivity, listActivity } from '../../domain/activity';
import { router } from '../../trpc';
import { permitted } from './base';
import { recordId } from '../../resources/fields';

const PAGE = 25;
const before = recordId.optional();

const readActivity = permitted('api_keys.manage', 'team.manage');
/** A calendar day in the clinic's zone, as a date input gives it (values/calendar.ts: a real day, years 0001-9998). */
export const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD')
  .refine(isCalendarDay, `Enter a real date ${CALENDAR_RULE}`);
const activityFilters = z.strictObject({
  kind: z.enum(ACTIVITY_KIND_NAMES).optional(),
  member_id: recordId.optional(),
  from: day.optional(),
  to: day.optional(),
  before,
});
const filtersOf = (input: z.infer<typeof activityFilters>) => ({
  kind: input.kind,
  memberId: input.member_id,
  from: input.from,
  to: input.to,
  before: input.before,
});

export const activityRouter = router({
  list: readActivity
    .input(activityFilters)
    .query(({ ctx, input }) =>
      listActivity(ctx.db.db, ctx.account.id, ctx.account.timezone, { ...filtersOf(input), limit: PAGE }),
    ),
  /** The filtered entries as a CSV download (server-side, so it holds exactly what the list shows, beyond the loaded pages). */
  export: readActivity
    .input(activityFilters.omit({ before: true }))
    .query(({ ctx, input }) => exportActivity(ctx.db.db, ctx.account.id, ctx.account.timezone, filtersOf(input))),
  /** Who the member filter offers. */
  members: readActivity.query(async ({ ctx }) => ({ data: await activityMembers(ctx.db.db, ctx.account.id) })),
});
