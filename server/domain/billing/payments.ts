/** Payments, their allocations to invoices, and refunds. */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import {
  paymentAllocations as allocationsTable,
  paymentMethods,
  payments as table,
  refunds as refundsTable,
} from '../../../db/schema';
import { ApiError, invalid, notFound } from '../../errors';
import { announce, announceDeleted, recordWrite } from '../../events/record';
import { invoices } from '../../resources/invoices';
import type { CreateInput, RowType } from '../../resources/define';
import { mergedMetadataOrFail } from '../../resources/metadata';
import { paymentAllocations } from '../../resources/payment_allocations';
import { payments } from '../../resources/payments';
import { refunds } from '../../resources/refunds';
import { findRow, getRow } from '../../resources/queries';
import { parseMoney } from '../../values/money';
import { assertLivePatient } from '../references';
import { clockFor } from '../../values/wall-time';
import { checkpoint, recorded, stamp, type WriteContext } from '../write-context';
import { lockedRow, lockPatientBilling, voidedOrMissing } from './lock';
import { billingRule, refreshPayment, retotalInvoice } from './totals';

type PaymentRow = RowType<typeof payments>;

async function loadMethod(tx: Db, accountId: number, id: number) {
  const [m] = await tx
    .select({ type: paymentMethods.type, active: paymentMethods.active })
    .from(paymentMethods)
    .where(and(eq(paymentMethods.account_id, accountId), eq(paymentMethods.id, id)));
  return m;
}

/** An insurance method pays an invoice's third-party part; any other method the patient part. */
const payerOf = (method: { type: string } | undefined) =>
  method?.type === 'insurance' ? ('third_party' as const) : ('patient' as const);
type Payer = ReturnType<typeof payerOf>;

/** A method usable through the API: active (422 payment_method_unavailable) and not a card (422 card_payment_not_allowed). */
async function usableMethod(tx: Db, accountId: number, id: number) {
  const m = await loadMethod(tx, accountId, id);
  if (!m || !m.active)
    throw invalid(
      'payment_method_id',
      m ? 'is not active' : 'is not a payment method of this account',
      'payment_method_unavailable',
    );
  if (m.type === 'card')
    throw invalid('payment_method_id', 'card payments cannot be recorded through the API', 'card_payment_not_allowed');
  return m;
}

/** A live payment, read after its patient's billing is locked (so its amounts are current). */
async function lockedPayment(tx: Db, accountId: number, id: number, missing: () => Error) {
  const payment = await lockedRow(tx, accountId, () => findRow(tx, payments, accountId, id));
  if (!payment) throw missing();
  return payment;
}

/**
 * Allocates part of a payment to an invoice of the same patient, to the part its payer pays; never
 * more than the payment has unallocated nor more than that part's balance (409 billing_rule).
 */
async function allocate(
  w: WriteContext,
  tx: Db,
  payment: PaymentRow,
  payer: Payer,
  invoiceId: number,
  amount: number,
  key = '',
) {
  const accountId = w.account.id;
  const invoice = await findRow(tx, invoices, accountId, invoiceId);
  if (!invoice)
    throw await voidedOrMissing(tx, accountId, 'invoices', invoiceId, () =>
      invalid(`${key}invoice_id`, 'is not an invoice of this account', 'invalid_input'),
    );
  if (invoice.patient_id !== payment.patient_id)
    throw billingRule('A payment is allocated to invoices of its own patient only', {
      [`${key}invoice_id`]: ['belongs to another patient'],
    });
  const [{ unallocated }] = await tx
    .select({ unallocated: table.unallocated_minor })
    .from(table)
    .where(and(eq(table.account_id, accountId), eq(table.id, payment.id)));
  if (amount > unallocated)
    throw billingRule('The payment has not that much left to allocate', {
      [`${key}amount`]: [`is more than the unallocated ${unallocated / 100}`],
    });
  const part = payer === 'patient' ? invoice.patient_balance_minor : invoice.third_party_balance_minor;
  if (amount > part)
    throw billingRule(`The invoice's ${payer === 'patient' ? 'patient' : 'third-party'} balance is less than that`, {
      [`${key}amount`]: [`is more than the balance ${part / 100}`],
    });
  await checkpoint(w, 'allocation');
  const now = stamp(w);
  const [row] = await tx
    .insert(allocationsTable)
    .values({
      account_id: accountId,
      payment_id: payment.id,
      invoice_id: invoiceId,
      amount_minor: amount,
      payer,
      metadata: {},
      created_at: now,
      updated_at: now,
    })
    .returning({ id: allocationsTable.id });
  await retotalInvoice(tx, accountId, invoiceId, stamp(w));
  await refreshPayment(tx, accountId, payment.id, stamp(w));
  return row.id;
}

export async function createPayment(w: WriteContext, input: CreateInput<typeof payments>) {
  const acc = w.account.id;
  const amount = parseMoney(input.amount);
  const id = await w.db.transaction(async (tx) => {
    await assertLivePatient(tx, acc, input.patient_id);
    await lockPatientBilling(tx, acc, input.patient_id);
    const payer = payerOf(await usableMethod(tx, acc, input.payment_method_id));
    const now = stamp(w);
    const [row] = await tx
      .insert(table)
      .values({
        account_id: acc,
        patient_id: input.patient_id,
        payment_method_id: input.payment_method_id,
        amount_minor: amount,
        allocated_minor: 0,
        refunded_minor: 0,
        unallocated_minor: amount,
        payment_date: input.payment_date ?? clockFor(w.account.timezone).today(),
        note: input.note ?? null,
        status: 'unallocated',
        created_by: w.actor.actor_name,
        metadata: mergedMetadataOrFail({}, input.metadata),
        created_at: now,
        updated_at: now,
      })
      .returning({ id: table.id });
    const payment = (await findRow(tx, payments, acc, row.id))!;
    for (const [i, a] of (input.allocations ?? []).entries()) {
      const allocationId = await allocate(
        w,
        tx,
        payment,
        payer,
        a.invoice_id,
        parseMoney(a.amount),
        `allocations.${i}.`,
      );
      // Made as part of the payment, like a patient's numbers: each allocation announces itself too.
      await announce(tx, acc, 'payment_allocations.created', 'payment_allocations', allocationId);
    }
    await recordWrite(tx, {
      ...recorded(w),
      entity: 'payments',
      entityId: row.id,
      action: 'created',
      changes: { ...input },
    });
    // Each invoice paid has a new balance and state: announced once, however many allocations it got.
    for (const invoiceId of new Set((input.allocations ?? []).map((a) => a.invoice_id)))
      await announce(tx, acc, 'invoices.updated', 'invoices', invoiceId);
    return row.id;
  });
  return payments.toRecord(await getRow(w.db.db, payments, acc, id));
}

/** DELETE /payments/{id}: voided, its allocations released. A refunded payment cannot be voided. */
export async function voidPayment(w: WriteContext, id: number): Promise<void> {
  const acc = w.account.id;
  await w.db.transaction(async (tx) => {
    const payment = await lockedRow(tx, acc, () => findRow(tx, payments, acc, id));
    if (!payment) throw await voidedOrMissing(tx, acc, 'payments', id);
    if (payment.refunded_minor > 0) throw billingRule('Money was refunded from this payment: it cannot be voided');
    const released = await tx
      .delete(allocationsTable)
      .where(and(eq(allocationsTable.account_id, acc), eq(allocationsTable.payment_id, id)))
      .returning({ id: allocationsTable.id, invoice_id: allocationsTable.invoice_id });
    const now = stamp(w);
    for (const a of released) await announceDeleted(tx, acc, 'payment_allocations', a.id, now);
    const touched = new Set(released.map((a) => a.invoice_id));
    for (const invoiceId of touched) await retotalInvoice(tx, acc, invoiceId, stamp(w));
    await refreshPayment(tx, acc, id, stamp(w));
    await tx
      .update(table)
      .set({ voided_at: now, status: 'void', updated_at: now })
      .where(and(eq(table.account_id, acc), eq(table.id, id)));
    await recordWrite(tx, {
      ...recorded(w),
      entity: 'payments',
      entityId: id,
      action: 'deleted',
      changes: { released_allocations: released.map((a) => a.id) },
    });
    for (const invoiceId of touched) await announce(tx, acc, 'invoices.updated', 'invoices', invoiceId, now);
  });
}

/** An allocation made or removed changes its invoice's balance and state and its payment's status. */
async function announceBalances(tx: Db, accountId: number, invoiceId: number, paymentId: number) {
  await announce(tx, accountId, 'invoices.updated', 'invoices', invoiceId);
  await announce(tx, accountId, 'payments.updated', 'payments', paymentId);
}

export async function createAllocation(w: WriteContext, input: CreateInput<typeof paymentAllocations>) {
  const acc = w.account.id;
  const amount = parseMoney(input.amount);
  const id = await w.db.transaction(async (tx) => {
    const payment = await lockedPayment(tx, acc, input.payment_id, () =>
      invalid('payment_id', 'is not a payment of this account', 'invalid_input'),
    );
    const payer = payerOf(await loadMethod(tx, acc, payment.payment_method_id));
    const allocationId = await allocate(w, tx, payment, payer, input.invoice_id, amount);
    if (input.metadata) {
      await tx
        .update(allocationsTable)
        .set({ metadata: mergedMetadataOrFail({}, input.metadata) })
        .where(and(eq(allocationsTable.account_id, acc), eq(allocationsTable.id, allocationId)));
    }
    await recordWrite(tx, {
      ...recorded(w),
      entity: 'payment_allocations',
      entityId: allocationId,
      action: 'created',
      changes: { ...input },
    });
    await announceBalances(tx, acc, input.invoice_id, input.payment_id);
    return allocationId;
  });
  return paymentAllocations.toRecord(await getRow(w.db.db, paymentAllocations, acc, id));
}

/**
 * DELETE /payment_allocations/{id}: the amount goes back to the payment and the invoice. Refused
 * (409 allocation_remove_failed) once the payment has been refunded: the refund paid out what was left
 * unallocated then, and freeing allocated money afterwards would let it be refunded a second time.
 */
export async function removeAllocation(w: WriteContext, id: number): Promise<void> {
  const acc = w.account.id;
  await w.db.transaction(async (tx) => {
    const found = await findRow(tx, paymentAllocations, acc, id);
    if (!found) throw notFound('Payment allocation');
    const payment = await lockedPayment(tx, acc, found.payment_id, () => notFound('Payment allocation'));
    // Read again under the lock: a concurrent void may have released it.
    const row = await findRow(tx, paymentAllocations, acc, id);
    if (!row) throw notFound('Payment allocation');
    if (payment.refunded_minor > 0) {
      throw new ApiError(
        'allocation_remove_failed',
        'The payment has been refunded: its allocations are settled and cannot be removed',
      );
    }
    await tx.delete(allocationsTable).where(and(eq(allocationsTable.account_id, acc), eq(allocationsTable.id, id)));
    await retotalInvoice(tx, acc, row.invoice_id, stamp(w));
    await refreshPayment(tx, acc, row.payment_id, stamp(w));
    await recordWrite(tx, {
      ...recorded(w),
      entity: 'payment_allocations',
      entityId: id,
      action: 'deleted',
      changes: { payment_id: row.payment_id, invoice_id: row.invoice_id },
    });
    await announceBalances(tx, acc, row.invoice_id, row.payment_id);
  });
}

/** POST /refunds: at most the payment's unallocated amount (409 billing_rule). Announced as payments.updated. */
export async function createRefund(w: WriteContext, input: CreateInput<typeof refunds>) {
  const acc = w.account.id;
  const amount = parseMoney(input.amount);
  const id = await w.db.transaction(async (tx) => {
    const payment = await lockedPayment(tx, acc, input.payment_id, () =>
      invalid('payment_id', 'is not a payment of this account', 'invalid_input'),
    );
    const refundable = payment.unallocated_minor;
    if (amount > refundable)
      throw billingRule('That is more than the payment has unallocated; remove allocations first', {
        amount: [`is more than the refundable ${refundable / 100}`],
      });
    const now = stamp(w);
    const [row] = await tx
      .insert(refundsTable)
      .values({
        account_id: acc,
        payment_id: input.payment_id,
        amount_minor: amount,
        reason: input.reason ?? null,
        created_by: w.actor.actor_name,
        metadata: mergedMetadataOrFail({}, input.metadata),
        created_at: now,
        updated_at: now,
      })
      .returning({ id: refundsTable.id });
    await refreshPayment(tx, acc, input.payment_id, stamp(w));
    await recordWrite(tx, {
      ...recorded(w),
      entity: 'refunds',
      entityId: row.id,
      action: 'created',
      changes: { ...input },
      eventType: 'payments.updated',
      eventEntity: 'payments',
      eventEntityId: input.payment_id,
    });
    return row.id;
  });
  return refunds.toRecord(await getRow(w.db.db, refunds, acc, id));
}
