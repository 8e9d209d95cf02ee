/** Where patients come from: the same records the API creates and updates; only here deleted. */
import { asc, eq } from 'drizzle-orm';
import { referralSources as table } from '../../../../db/schema';
import {
  createReferralSource,
  deleteReferralSource,
  updateReferralSource,
} from '../../../domain/practice/referral-sources';
import { recordId } from '../../../resources/fields';
import { referralSources } from '../../../resources/referral_sources';
import { router } from '../../../trpc';
import { as, byId, manage, read } from './procedures';

export const referralSourcesRouter = router({
  list: read.query(async ({ ctx }) => {
    const rows = await ctx.db.db
      .select()
      .from(table)
      .where(eq(table.account_id, ctx.account.id))
      .orderBy(asc(table.name), asc(table.id));
    return { data: rows.map(referralSources.toRecord) };
  }),
  create: manage
    .input(referralSources.staffCreateInput)
    .mutation(({ ctx, input }) => createReferralSource(as(ctx), input)),
  update: manage
    .input(referralSources.staffUpdateInput.extend({ id: recordId }))
    .mutation(({ ctx, input: { id, ...input } }) => updateReferralSource(as(ctx), id, input)),
  delete: manage.input(byId).mutation(({ ctx, input }) => deleteReferralSource(as(ctx), input.id)),
});
