/** Treatment modalities (what a care plan phase's visits are for): name and colour. */
import { asc, eq } from 'drizzle-orm';
import { modalities as table } from '../../../../db/schema';
import { createModality, deleteModality, updateModality } from '../../../domain/practice/modalities';
import { recordId } from '../../../resources/fields';
import { modalities } from '../../../resources/modalities';
import { router } from '../../../trpc';
import { as, byId, manage, read } from './procedures';

export const modalitiesRouter = router({
  list: read.query(async ({ ctx }) => {
    const rows = await ctx.db.db
      .select()
      .from(table)
      .where(eq(table.account_id, ctx.account.id))
      .orderBy(asc(table.name), asc(table.id));
    return { data: rows.map(modalities.toRecord) };
  }),
  create: manage.input(modalities.staffCreateInput).mutation(({ ctx, input }) => createModality(as(ctx), input)),
  update: manage
    .input(modalities.staffUpdateInput.extend({ id: recordId }))
    .mutation(({ ctx, input: { id, ...input } }) => updateModality(as(ctx), id, input)),
  delete: manage.input(byId).mutation(({ ctx, input }) => deleteModality(as(ctx), input.id)),
});
