/**
 * The demo ledger, written through the billing code: invoices in every state (open, partially paid,
 * paid, and one voided), payments by cash, bank transfer and an insurer, a third-party split, an
 * overpayment refunded, so balances are real from the first request.
 */
import { asc, eq } from 'drizzle-orm';
import { billableItems, paymentMethods } from '../../db/schema';
import { createInvoice, updateInvoice, voidInvoice } from '../domain/billing/invoices';
import { createPayment, createRefund } from '../domain/billing/payments';
import { formatMoney, parseMoney } from '../values/money';
import type { WriteContext } from '../domain/write-context';

export async function seedBilling(w: WriteContext, patientIds: number[]): Promise<void> {
  const db = w.db.db;
  const acc = w.account.id;
  const items = await db
    .select({ id: billableItems.id, code: billableItems.item_code })
    .from(billableItems)
    .where(eq(billableItems.account_id, acc))
    .orderBy(asc(billableItems.id));
  const item = (code: string) => items.find((i) => i.code === code)!.id;
  const methods = await db
    .select({ id: paymentMethods.id, type: paymentMethods.type, active: paymentMethods.active })
    .from(paymentMethods)
    .where(eq(paymentMethods.account_id, acc));
  const method = (type: string) => methods.find((m) => m.type === type && m.active)!.id;
  const invoice = (
    patient: number,
    lines: [string, number][],
    extra: { third_party_payer?: string; third_party_amount?: string; note?: string } = {},
  ) =>
    createInvoice(w, {
      patient_id: patientIds[patient],
      line_items: lines.map(([code, quantity]) => ({ billable_item_id: item(code), quantity })),
      ...extra,
    });
  const pay = (
    patient: number,
    type: string,
    amount: string,
    allocations: { invoice_id: number; amount: string }[] = [],
    note?: string,
  ) =>
    createPayment(w, { patient_id: patientIds[patient], payment_method_id: method(type), amount, allocations, note });

  // Paid in full in cash.
  const paid = await invoice(0, [
    ['PHY-IA60', 1],
    ['PRD-BAND-M', 1],
  ]);
  await pay(0, 'cash', paid.total as string, [{ invoice_id: paid.id as number, amount: paid.total as string }]);
  // Half paid by bank transfer.
  const partial = await invoice(1, [['PHY-FU30', 2]]);
  const half = formatMoney(Math.floor(parseMoney(partial.total as string) / 2));
  await pay(1, 'bank_transfer', half, [{ invoice_id: partial.id as number, amount: half }]);
  // Nothing paid yet.
  await invoice(
    2,
    [
      ['PHY-FU45', 1],
      ['PRD-TAPE', 2],
    ],
    { note: 'Payment due within 14 days' },
  );
  // Split: the insurer covers the assessment and has paid; the patient owes the rest.
  const split = await invoice(3, [
    ['PHY-IA60', 1],
    ['PRD-ROLL', 1],
  ]);
  const covered = (split.line_items as { total: string }[])[0].total;
  await updateInvoice(w, split.id as number, { third_party_payer: 'Bupa', third_party_amount: covered });
  // Raised in error, then voided: no longer returned, listed in deleted_entities.
  await voidInvoice(w, (await invoice(3, [['ADM-REP', 1]], { note: 'Raised in error' })).id as number, false);
  await pay(3, 'insurance', covered, [{ invoice_id: split.id as number, amount: covered }], 'Bupa remittance');
  // Overpaid by 10.00: 5.00 went back as a refund, 5.00 stays as credit.
  const overpaid = await invoice(4, [['MAS-45', 1]]);
  const payment = await pay(4, 'cash', formatMoney(parseMoney(overpaid.total as string) + 1000), [
    { invoice_id: overpaid.id as number, amount: overpaid.total as string },
  ]);
  await createRefund(w, { payment_id: payment.id as number, amount: '5.00', reason: 'Change given back' });
  // Credit on account: paid ahead, not yet allocated.
  await pay(5, 'other', '20.00', [], 'Gift voucher');
}
