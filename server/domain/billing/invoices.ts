/** Invoices: numbered on creation, lines reconciled by id on PATCH, voided on DELETE. */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import {
  invoiceCounters,
  invoices as table,
  lineItems as linesTable,
  paymentAllocations,
  payments,
} from '../../../db/schema';
import { invalid, notFound } from '../../errors';
import { announce, announceDeleted, changedFields, markDeleted, recordWrite } from '../../events/record';
import { appointments } from '../../resources/appointments';
import { invoices } from '../../resources/invoices';
import { storedValues, type CreateInput, type UpdateInput } from '../../resources/define';
import { mergedMetadataOrFail } from '../../resources/metadata';
import { findRow, getRow } from '../../resources/queries';
import { cascade } from '../cascade';
import { assertLivePatient } from '../references';
import { loadLocation, loadPractitioner } from '../scheduling/calendar';
import { clockFor } from '../../values/wall-time';
import { reconcileById } from '../reconcile';
import { checkpoint, recorded, stamp, type WriteContext } from '../write-context';
import { insertLines, priceLines } from './lines';
import { lockedRow, lockPatientBilling, voidedOrMissing } from './lock';
import { billingRule, refreshPayment, retotalInvoice } from './totals';

type InvoiceCreate = CreateInput<typeof invoices>;
type InvoiceUpdate = UpdateInput<typeof invoices>;
type InvoiceLine = NonNullable<InvoiceUpdate['line_items']>[number];

export const readInvoice = async (w: WriteContext, id: number) =>
  invoices.toRecord(await getRow(w.db.db, invoices, w.account.id, id));

/**
 * The next number of the clinic: its counter row moves in the invoice's own transaction (locked until it
 * commits), so a number is never reused or skipped.
 */
async function nextNumber(tx: Db, accountId: number): Promise<number> {
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ account_id: accountId, last_number: 1 })
    .onConflictDoUpdate({
      target: invoiceCounters.account_id,
      set: { last_number: sql`${invoiceCounters.last_number} + 1` },
    })
    .returning({ n: invoiceCounters.last_number });
  return row.n;
}

/**
 * The invoice's links checked, and filled from its appointment: an invoice made for an appointment (or
 * given one) is the appointment's patient's, and takes its practitioner and location unless the request
 * names them (null included) or the invoice already has them, so revenue by practitioner or location
 * needs no second look at the diary. `stored`: the invoice before a PATCH.
 */
async function checkLinks<I extends InvoiceUpdate>(
  tx: Db,
  accountId: number,
  input: I,
  stored?: {
    patient_id: number;
    appointment_id: number | null;
    practitioner_id: number | null;
    location_id: number | null;
  },
): Promise<I> {
  if (input.practitioner_id != null) await loadPractitioner(tx, accountId, input.practitioner_id);
  if (input.location_id != null) await loadLocation(tx, accountId, input.location_id);
  const appointmentId = input.appointment_id !== undefined ? input.appointment_id : stored?.appointment_id;
  if (appointmentId == null) return input;
  const appointment = await findRow(tx, appointments, accountId, appointmentId);
  if (!appointment) throw invalid('appointment_id', 'is not an appointment of this account', 'invalid_input');
  const patientId = input.patient_id ?? stored?.patient_id;
  if (appointment.patient_id !== patientId)
    throw invalid(
      input.appointment_id !== undefined ? 'appointment_id' : 'patient_id',
      'the appointment is of another patient than the invoice',
      'invalid_input',
    );
  if (input.appointment_id === undefined) return input;
  return {
    ...input,
    practitioner_id:
      input.practitioner_id !== undefined
        ? input.practitioner_id
        : (stored?.practitioner_id ?? appointment.practitioner_id),
    location_id: input.location_id !== undefined ? input.location_id : (stored?.location_id ?? appointment.location_id),
  };
}

export async function createInvoice(w: WriteContext, input: InvoiceCreate) {
  const acc = w.account.id;
  if (!input.line_items?.length)
    throw billingRule('An invoice needs at least one line', { line_items: ['must hold at least one line'] }, 422);
  if (input.line_items.some((l) => l.id !== undefined))
    throw invalid('line_items', 'new lines have no id', 'validation_failed');
  const id = await w.db.transaction(async (tx) => {
    await assertLivePatient(tx, acc, input.patient_id);
    await lockPatientBilling(tx, acc, input.patient_id);
    const linked = await checkLinks(tx, acc, input);
    const priced = await priceLines(tx, acc, input.line_items!, (i, a) => `line_items.${i}.${a}`);
    const now = stamp(w);
    const zero = {
      subtotal_minor: 0,
      discount_minor: 0,
      tax_minor: 0,
      total_minor: 0,
      paid_minor: 0,
      patient_paid_minor: 0,
      third_party_paid_minor: 0,
    };
    const number = await nextNumber(tx, acc);
    await checkpoint(w, 'invoice_number');
    const [row] = await tx
      .insert(table)
      .values({
        account_id: acc,
        number,
        invoice_date: input.invoice_date ?? clockFor(w.account.timezone).today(),
        third_party_minor: 0,
        ...storedValues(invoices, linked),
        ...zero,
        balance_minor: 0,
        patient_balance_minor: 0,
        third_party_balance_minor: 0,
        state: 'open',
        type: 'patient',
        patient_id: input.patient_id,
        created_by: w.actor.actor_name,
        metadata: mergedMetadataOrFail({}, input.metadata),
        created_at: now,
        updated_at: now,
      })
      .returning({ id: table.id });
    await insertLines(tx, acc, row.id, priced);
    await retotalInvoice(tx, acc, row.id, stamp(w));
    await recordWrite(tx, {
      ...recorded(w),
      entity: 'invoices',
      entityId: row.id,
      action: 'created',
      changes: { ...linked },
    });
    return row.id;
  });
  return readInvoice(w, id);
}

export async function updateInvoice(w: WriteContext, id: number, input: InvoiceUpdate) {
  const acc = w.account.id;
  await w.db.transaction(async (tx) => {
    const before = await lockedRow(tx, acc, () => findRow(tx, invoices, acc, id));
    if (!before) throw notFound('Invoice');
    if (input.patient_id !== undefined && input.patient_id !== before.patient_id) {
      if (before.paid_minor > 0)
        throw billingRule('Payments are allocated to this invoice: remove them before changing the patient');
      await assertLivePatient(tx, acc, input.patient_id);
    }
    const linked = await checkLinks(tx, acc, input, before);
    const set = { ...storedValues(invoices, linked), updated_at: stamp(w) };
    if (input.metadata !== undefined) set.metadata = mergedMetadataOrFail(before.metadata, input.metadata);
    await tx
      .update(table)
      .set(set)
      .where(and(eq(table.account_id, acc), eq(table.id, id)));
    if (input.line_items !== undefined) await reconcileLines(tx, acc, id, input.line_items);
    await retotalInvoice(tx, acc, id, stamp(w));
    const after = (await findRow(tx, invoices, acc, id))!;
    await recordWrite(tx, {
      ...recorded(w),
      entity: 'invoices',
      entityId: id,
      action: 'updated',
      changes: changedFields(invoices.toRecord(before), invoices.toRecord(after)),
    });
  });
  return readInvoice(w, id);
}

/** Lines by id: a stored id updates that line, no id adds one, a stored line left out is removed. */
async function reconcileLines(tx: Db, acc: number, invoiceId: number, lines: InvoiceLine[]) {
  if (!lines.length)
    throw billingRule('An invoice keeps at least one line; void the invoice instead', {
      line_items: ['must hold at least one line'],
    });
  const stored = await tx
    .select({ id: linesTable.id })
    .from(linesTable)
    .where(and(eq(linesTable.account_id, acc), eq(linesTable.invoice_id, invoiceId)));
  const removed = reconcileById(
    stored.map((s) => s.id),
    lines,
    'line_items',
    'a line of this invoice',
  );
  const priced = await priceLines(tx, acc, lines, (i, a) => `line_items.${i}.${a}`);
  const now = new Date().toISOString();
  if (removed.length)
    await tx.delete(linesTable).where(and(eq(linesTable.account_id, acc), inArray(linesTable.id, removed)));
  // Lines have no events of their own (they are announced as their invoice), but pollers learn of removals.
  for (const lineId of removed) await markDeleted(tx, acc, 'line_items', lineId, now);
  for (const [i, l] of lines.entries()) {
    if (l.id === undefined) continue;
    await tx
      .update(linesTable)
      .set({ ...priced[i], updated_at: now })
      .where(and(eq(linesTable.account_id, acc), eq(linesTable.id, l.id)));
  }
  const added = priced.filter((_, i) => lines[i].id === undefined);
  if (added.length) await insertLines(tx, acc, invoiceId, added);
}

/**
 * DELETE /invoices/{id}: the invoice is voided (kept, numbered, no longer returned), its allocations
 * are released, and with voidPayments the payments that paid this invoice and nothing else (fully
 * allocated, never refunded, nothing allocated once released) are voided too.
 */
export async function voidInvoice(w: WriteContext, id: number, voidPayments: boolean): Promise<void> {
  const acc = w.account.id;
  await w.db.transaction(async (tx) => {
    const before = await lockedRow(tx, acc, () => findRow(tx, invoices, acc, id));
    if (!before) throw await voidedOrMissing(tx, acc, 'invoices', id);
    // A payment is voided with the invoice only if it paid this invoice and nothing else: fully
    // allocated before, nothing allocated after, never refunded. A payment holding credit is kept.
    const fullyAllocated = new Set(
      (
        await tx
          .select({ id: payments.id })
          .from(payments)
          .innerJoin(
            paymentAllocations,
            and(
              eq(paymentAllocations.account_id, payments.account_id),
              eq(paymentAllocations.payment_id, payments.id),
              eq(paymentAllocations.invoice_id, id),
            ),
          )
          .where(and(eq(payments.account_id, acc), eq(payments.unallocated_minor, 0), eq(payments.refunded_minor, 0)))
      ).map((p) => p.id),
    );
    const released = await tx
      .delete(paymentAllocations)
      .where(and(eq(paymentAllocations.account_id, acc), eq(paymentAllocations.invoice_id, id)))
      .returning({ id: paymentAllocations.id, payment_id: paymentAllocations.payment_id });
    const now = stamp(w);
    for (const a of released) await announceDeleted(tx, acc, 'payment_allocations', a.id, now);
    for (const paymentId of new Set(released.map((a) => a.payment_id))) {
      await refreshPayment(tx, acc, paymentId, stamp(w));
      if (!voidPayments || !fullyAllocated.has(paymentId)) {
        await announce(tx, acc, 'payments.updated', 'payments', paymentId, now);
        continue;
      }
      const [p] = await tx
        .select({ allocated: payments.allocated_minor })
        .from(payments)
        .where(and(eq(payments.account_id, acc), eq(payments.id, paymentId)));
      if (p.allocated === 0) {
        await tx
          .update(payments)
          .set({ voided_at: now, status: 'void', updated_at: now })
          .where(and(eq(payments.account_id, acc), eq(payments.id, paymentId)));
        await announceDeleted(tx, acc, 'payments', paymentId, now);
      } else {
        await announce(tx, acc, 'payments.updated', 'payments', paymentId, now);
      }
    }
    // With its allocations gone the invoice owes its total again; re-totalled, then marked void.
    await retotalInvoice(tx, acc, id, stamp(w));
    await tx
      .update(table)
      .set({ voided_at: now, state: 'void', updated_at: now })
      .where(and(eq(table.account_id, acc), eq(table.id, id)));
    const gone = await cascade(tx, acc, 'invoices', [id], now);
    await recordWrite(tx, {
      ...recorded(w),
      entity: 'invoices',
      entityId: id,
      action: 'deleted',
      changes: { released_allocations: released.map((a) => a.id), void_payments: voidPayments, gone },
    });
  });
}
