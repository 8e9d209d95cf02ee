/** What the clinic charges for: services and products with their price and tax. */
import { asc, eq } from 'drizzle-orm';
import { billableItems as itemTable } from '../../../../db/schema';
import { createBillableItem, deleteBillableItem, updateBillableItem } from '../../../domain/practice/billable-items';
import { billableItems } from '../../../resources/billable_items';
import { recordId } from '../../../resources/fields';
import { router } from '../../../trpc';
import { as, byId, manage, read } from './procedures';

export const billableItemsRouter = router({
  /** With the clinic's currency, which prices are typed in. */
  list: read.query(async ({ ctx }) => {
    const rows = await ctx.db.db
      .select()
      .from(itemTable)
      .where(eq(itemTable.account_id, ctx.account.id))
      .orderBy(asc(itemTable.name), asc(itemTable.id));
    return { data: rows.map(billableItems.toRecord), currency: ctx.account.currency };
  }),
  create: manage.input(billableItems.staffCreateInput).mutation(({ ctx, input }) => createBillableItem(as(ctx), input)),
  update: manage
    .input(billableItems.staffUpdateInput.extend({ id: recordId }))
    .mutation(({ ctx, input: { id, ...input } }) => updateBillableItem(as(ctx), id, input)),
  delete: manage.input(byId).mutation(({ ctx, input }) => deleteBillableItem(as(ctx), input.id)),
});
