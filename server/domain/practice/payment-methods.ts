/**
 * Payment methods set up by staff. A method that payments were taken with is not deleted (409): the
 * payments keep it for the record. It is made inactive instead (`active: false`), which takes it out
 * of the choices for new payments.
 */
import { and, count, eq, max } from 'drizzle-orm';
import { paymentMethods as paymentMethodTable, payments } from '../../../db/schema';
import type { StaffCreateInput, StaffUpdateInput } from '../../resources/define';
import { paymentMethods } from '../../resources/payment_methods';
import type { WriteContext } from '../write-context';
import { refuseIfUsed } from './in-use';
import { createSetupRecord, deleteSetupRecord, updateSetupRecord } from './setup-writes';

/** A new method without a sort order comes last. */
async function nextSortOrder(w: WriteContext): Promise<number> {
  const [last] = await w.db.db
    .select({ n: max(paymentMethodTable.sort_order) })
    .from(paymentMethodTable)
    .where(eq(paymentMethodTable.account_id, w.account.id));
  return (last?.n ?? 0) + 1;
}

export const createPaymentMethod = async (w: WriteContext, input: StaffCreateInput<typeof paymentMethods>) =>
  createSetupRecord(w, paymentMethods, input, { defaults: { active: true, sort_order: await nextSortOrder(w) } });

export const updatePaymentMethod = (w: WriteContext, id: number, input: StaffUpdateInput<typeof paymentMethods>) =>
  updateSetupRecord(w, paymentMethods, id, input);

export const deletePaymentMethod = (w: WriteContext, id: number) =>
  deleteSetupRecord(w, paymentMethods, id, {
    inUse: async (tx, before) => {
      const [paid] = await tx
        .select({ n: count() })
        .from(payments)
        .where(and(eq(payments.account_id, w.account.id), eq(payments.payment_method_id, id)));
      refuseIfUsed(
        before.name,
        [[paid.n, 'payment']],
        'Make it inactive instead: it can no longer be chosen for new payments, and past payments keep it.',
      );
    },
  });
