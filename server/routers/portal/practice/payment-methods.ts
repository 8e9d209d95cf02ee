/** Ways the clinic takes payment, in the order the clinic lists them. */
import { asc, eq } from 'drizzle-orm';
import { paymentMethods as table } from '../../../../db/schema';
import {
  createPaymentMethod,
  deletePaymentMethod,
  updatePaymentMethod,
} from '../../../domain/practice/payment-methods';
import { recordId } from '../../../resources/fields';
import { paymentMethods } from '../../../resources/payment_methods';
import { router } from '../../../trpc';
import { as, byId, manage, read } from './procedures';

export const paymentMethodsRouter = router({
  list: read.query(async ({ ctx }) => {
    const rows = await ctx.db.db
      .select()
      .from(table)
      .where(eq(table.account_id, ctx.account.id))
      .orderBy(asc(table.sort_order), asc(table.name), asc(table.id));
    return { data: rows.map(paymentMethods.toRecord) };
  }),
  create: manage
    .input(paymentMethods.staffCreateInput)
    .mutation(({ ctx, input }) => createPaymentMethod(as(ctx), input)),
  update: manage
    .input(paymentMethods.staffUpdateInput.extend({ id: recordId }))
    .mutation(({ ctx, input: { id, ...input } }) => updatePaymentMethod(as(ctx), id, input)),
  delete: manage.input(byId).mutation(({ ctx, input }) => deletePaymentMethod(as(ctx), input.id)),
});
