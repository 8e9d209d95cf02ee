/**
 * Billable items set up by staff: the price is typed as a decimal in the clinic's currency and stored in
 * minor units, the tax rate in percent and stored in basis points, both through server/values/money.ts
 * (string arithmetic, no floats). An item that invoice lines or care plans use is not deleted (409):
 * made inactive instead (`active: false`) it is no longer offered for new lines, and past invoices keep
 * their item. Billable items have no event types in the catalogue: their writes are audited only.
 */
import { and, count, eq } from 'drizzle-orm';
import { carePlans, lineItems } from '../../../db/schema';
import { billableItems } from '../../resources/billable_items';
import type { StaffCreateInput, StaffUpdateInput } from '../../resources/define';
import { parseMoney } from '../../values/money';
import type { WriteContext } from '../write-context';
import { refuseIfUsed } from './in-use';
import { createSetupRecord, deleteSetupRecord, updateSetupRecord } from './setup-writes';

/** The stored minor units (and basis points) of what staff typed. */
const stored = (input: StaffUpdateInput<typeof billableItems>) => ({
  ...(input.price !== undefined ? { price_minor: parseMoney(input.price) } : {}),
  ...(input.tax_rate !== undefined ? { tax_rate_bp: parseMoney(input.tax_rate) } : {}),
});

export const createBillableItem = (w: WriteContext, input: StaffCreateInput<typeof billableItems>) =>
  createSetupRecord(w, billableItems, input, { defaults: { active: true, tax_rate_bp: 0 }, stored });

export const updateBillableItem = (w: WriteContext, id: number, input: StaffUpdateInput<typeof billableItems>) =>
  updateSetupRecord(w, billableItems, id, input, { stored });

export const deleteBillableItem = (w: WriteContext, id: number) =>
  deleteSetupRecord(w, billableItems, id, {
    inUse: async (tx, before) => {
      const [lines] = await tx
        .select({ n: count() })
        .from(lineItems)
        .where(and(eq(lineItems.account_id, w.account.id), eq(lineItems.billable_item_id, id)));
      // Care plans name their items inside their billing (JSON): few per clinic, read and counted here.
      const plans = (
        await tx.select({ billing: carePlans.billing }).from(carePlans).where(eq(carePlans.account_id, w.account.id))
      ).filter((p) =>
        [...(p.billing?.services ?? []), ...(p.billing?.products ?? [])].some((s) => s.billable_item_id === id),
      ).length;
      refuseIfUsed(
        before.name,
        [
          [lines.n, 'invoice line'],
          [plans, 'care plan'],
        ],
        'Make it inactive instead: it is no longer offered for new invoice lines, and past invoices keep it.',
      );
    },
  });
