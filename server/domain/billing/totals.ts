/**
 * The arithmetic of billing, in integer minor units. Invoice totals and balances and payment amounts
 * are stored denormalised (for filters and sorts) and recomputed here from the lines, allocations and
 * refunds, inside the transaction of every change to them: they can never drift from their sources.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { invoices, lineItems, paymentAllocations, payments, refunds } from '../../../db/schema';
import { ApiError } from '../../errors';

/** The largest line total accepted (999,999,999.99): sums of a few hundred lines stay exact in a double. */
export const MAX_LINE_MINOR = 99_999_999_999;

/** A 409 billing_rule (the spec gives the code two statuses; 422 for zero lines on create). */
export const billingRule = (message: string, errors?: Record<string, string[]>, status = 409) =>
  new ApiError('billing_rule', message, errors, { status });

/** Tax rounds half up to the minor unit, per line (BigInt: subtotal × rate can pass 2^53). */
export function lineAmounts(quantity: number, unitMinor: number, discountMinor: number, taxBp: number) {
  const subtotal = quantity * unitMinor - discountMinor;
  const tax = Number((BigInt(subtotal) * BigInt(taxBp) + 5000n) / 10000n);
  return { subtotal_minor: subtotal, tax_minor: tax, total_minor: subtotal + tax };
}

const sum = (col: Parameters<typeof sql>[1]) => sql<number>`coalesce(sum(${col}), 0)`.mapWith(Number);

/**
 * Re-totals an invoice from its lines and allocations. Refuses (409 billing_rule) a state where the
 * invoice would owe less than has been paid, on either part, so balances never go negative. Called when
 * its lines or allocations changed, so the invoice did (its `lines` with them): updated_at moves to `at`,
 * and polling clients find it.
 */
export async function retotalInvoice(tx: Db, accountId: number, invoiceId: number, at: string): Promise<void> {
  const [inv] = await tx
    .select({ third_party: invoices.third_party_minor })
    .from(invoices)
    .where(and(eq(invoices.account_id, accountId), eq(invoices.id, invoiceId)));
  const [lines] = await tx
    .select({
      subtotal: sum(lineItems.subtotal_minor),
      discount: sum(lineItems.discount_minor),
      tax: sum(lineItems.tax_minor),
      total: sum(lineItems.total_minor),
    })
    .from(lineItems)
    .where(and(eq(lineItems.account_id, accountId), eq(lineItems.invoice_id, invoiceId)));
  const paidBy = await tx
    .select({ payer: paymentAllocations.payer, amount: sum(paymentAllocations.amount_minor) })
    .from(paymentAllocations)
    .where(and(eq(paymentAllocations.account_id, accountId), eq(paymentAllocations.invoice_id, invoiceId)))
    .groupBy(paymentAllocations.payer);
  const patientPaid = paidBy.find((p) => p.payer === 'patient')?.amount ?? 0;
  const thirdPartyPaid = paidBy.find((p) => p.payer === 'third_party')?.amount ?? 0;
  const thirdParty = inv.third_party;
  if (thirdParty > lines.total) {
    throw billingRule('The third-party part cannot exceed the invoice total', {
      third_party_amount: [`is more than the total (${lines.total / 100})`],
    });
  }
  const patientDue = lines.total - thirdParty;
  if (patientPaid > patientDue || thirdPartyPaid > thirdParty) {
    throw billingRule('The invoice would owe less than has already been paid; remove payment allocations first');
  }
  const paid = patientPaid + thirdPartyPaid;
  const balance = lines.total - paid;
  await tx
    .update(invoices)
    .set({
      subtotal_minor: lines.subtotal,
      discount_minor: lines.discount,
      tax_minor: lines.tax,
      total_minor: lines.total,
      paid_minor: paid,
      patient_paid_minor: patientPaid,
      third_party_paid_minor: thirdPartyPaid,
      balance_minor: balance,
      patient_balance_minor: patientDue - patientPaid,
      third_party_balance_minor: thirdParty - thirdPartyPaid,
      state: balance === 0 ? 'paid' : paid > 0 ? 'partially_paid' : 'open',
      type: thirdParty === 0 ? 'patient' : thirdParty === lines.total ? 'third_party' : 'split',
      updated_at: at,
    })
    .where(and(eq(invoices.account_id, accountId), eq(invoices.id, invoiceId)));
}

/**
 * Recomputes a payment's allocated, refunded and unallocated amounts and its status. Called when its
 * allocations or refunds changed, so the payment did: updated_at moves to `at`.
 */
export async function refreshPayment(tx: Db, accountId: number, paymentId: number, at: string): Promise<void> {
  const [p] = await tx
    .select({ amount: payments.amount_minor })
    .from(payments)
    .where(and(eq(payments.account_id, accountId), eq(payments.id, paymentId)));
  const [a] = await tx
    .select({ total: sum(paymentAllocations.amount_minor) })
    .from(paymentAllocations)
    .where(and(eq(paymentAllocations.account_id, accountId), eq(paymentAllocations.payment_id, paymentId)));
  const [r] = await tx
    .select({ total: sum(refunds.amount_minor) })
    .from(refunds)
    .where(and(eq(refunds.account_id, accountId), eq(refunds.payment_id, paymentId)));
  const unallocated = p.amount - a.total - r.total;
  // The callers check before writing; this is the invariant itself, should a path ever miss it.
  if (unallocated < 0) throw billingRule('The payment would be allocated or refunded beyond its amount');
  const status =
    r.total === p.amount
      ? 'refunded'
      : a.total === 0
        ? 'unallocated'
        : unallocated === 0
          ? 'allocated'
          : 'partially_allocated';
  await tx
    .update(payments)
    .set({ allocated_minor: a.total, refunded_minor: r.total, unallocated_minor: unallocated, status, updated_at: at })
    .where(and(eq(payments.account_id, accountId), eq(payments.id, paymentId)));
}
