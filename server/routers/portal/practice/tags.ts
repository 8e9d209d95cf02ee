/** Patient tags, in the order the clinic lists them. */
import { asc, eq } from 'drizzle-orm';
import { tags as table } from '../../../../db/schema';
import { createTag, deleteTag, updateTag } from '../../../domain/practice/tags';
import { recordId } from '../../../resources/fields';
import { tags } from '../../../resources/tags';
import { router } from '../../../trpc';
import { as, byId, manage, read } from './procedures';

export const tagsRouter = router({
  list: read.query(async ({ ctx }) => {
    const rows = await ctx.db.db
      .select()
      .from(table)
      .where(eq(table.account_id, ctx.account.id))
      .orderBy(asc(table.sort_order), asc(table.name), asc(table.id));
    return { data: rows.map(tags.toRecord) };
  }),
  create: manage.input(tags.staffCreateInput).mutation(({ ctx, input }) => createTag(as(ctx), input)),
  update: manage
    .input(tags.staffUpdateInput.extend({ id: recordId }))
    .mutation(({ ctx, input: { id, ...input } }) => updateTag(as(ctx), id, input)),
  delete: manage.input(byId).mutation(({ ctx, input }) => deleteTag(as(ctx), input.id)),
});
