/** The activity log, read in the portal (the request log: ./requests.ts). */
import { z } from 'zod';
import { ACTIVITY_KIND_NAMES, activityMembers, exportActivity, listActivity } from '../../domain/activity';
import { router } from '../../trpc';
import { permitted } from './base';
import { recordId } from '../../resources/fields';

const PAGE = 25;
const before = recordId.optional();

const readActivity = permitted('api_keys.manage', 'team.manage');
/** A calendar day in the clinic's zone, as a date input gives it. */
// A real day: the parser rolls 2026-02-30 over into March, so the day must come back as it was written.
const realDay = (d: string) => {
  const t = Date.parse(`${d}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d;
};
export const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD')
  .refine(realDay, 'Enter a real date');
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
