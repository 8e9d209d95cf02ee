/** Invoice lines: priced from billable items, added, changed and removed with the invoice re-totalled. */
import { and, count, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../../db/client';
import { billableItems, invoices, lineItems as table } from '../../../db/schema';
import { ApiError, invalid, notFound } from '../../errors';
import { recordWrite } from '../../events/record';
import { lineItems, type addLinesInput, type LineInput } from '../../resources/line_items';
import type { UpdateInput } from '../../resources/define';
import { mergedMetadataOrFail } from '../../resources/metadata';
import { findRow, findRows } from '../../resources/queries';
import { parseMoney } from '../../values/money';
import { recorded, stamp, type WriteContext } from '../write-context';
import { lockedRow } from './lock';
import { billingRule, lineAmounts, MAX_LINE_MINOR, retotalInvoice } from './totals';

/** A line to price: what a client sends, or a stored line's values for a re-price. */
type LineValues = Pick<
  LineInput,
  'billable_item_id' | 'quantity' | 'unit_price' | 'discount' | 'description' | 'metadata'
>;

/**
 * The stored columns of lines, priced from their billable items. `key(i)` names line i in errors
 * (`line_items.2` on an invoice, `lines.2` on POST /line_items, or nothing for a single line).
 */
export async function priceLines(
  tx: Db,
  accountId: number,
  lines: LineValues[],
  key: (i: number, attribute: string) => string,
) {
  const ids = [...new Set(lines.map((l) => l.billable_item_id))];
  const items = ids.length
    ? await tx
        .select({
          id: billableItems.id,
          name: billableItems.name,
          price: billableItems.price_minor,
          tax: billableItems.tax_rate_bp,
          active: billableItems.active,
        })
        .from(billableItems)
        .where(and(eq(billableItems.account_id, accountId), inArray(billableItems.id, ids)))
    : [];
  return lines.map((l, i) => {
    const item = items.find((x) => x.id === l.billable_item_id);
    if (!item || !item.active)
      throw invalid(
        key(i, 'billable_item_id'),
        item ? 'is not active' : 'is not a billable item of this account',
        'invalid_input',
      );
    const unit = l.unit_price !== undefined ? parseMoney(l.unit_price) : item.price;
    const discount = l.discount !== undefined ? parseMoney(l.discount) : 0;
    if (discount > l.quantity * unit)
      throw invalid(key(i, 'discount'), 'is more than quantity × unit price', 'invalid_input');
    if (l.quantity * unit > MAX_LINE_MINOR)
      throw invalid(key(i, 'quantity'), 'the line total is too large', 'invalid_input');
    return {
      billable_item_id: item.id,
      description: l.description ?? item.name,
      quantity: l.quantity,
      unit_price_minor: unit,
      discount_minor: discount,
      tax_rate_bp: item.tax,
      ...lineAmounts(l.quantity, unit, discount, item.tax),
      metadata: mergedMetadataOrFail({}, l.metadata),
    };
  });
}

export async function insertLines(
  tx: Db,
  accountId: number,
  invoiceId: number,
  priced: Awaited<ReturnType<typeof priceLines>>,
): Promise<number[]> {
  const now = new Date().toISOString();
  const rows = await tx
    .insert(table)
    .values(
      priced.map((p) => ({ ...p, account_id: accountId, invoice_id: invoiceId, created_at: now, updated_at: now })),
    )
    .returning({ id: table.id });
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** The invoice a line write touches: live, locked for its patient. A voided invoice's lines cannot change. */
async function writableInvoice(tx: Db, accountId: number, invoiceId: number, attribute = 'invoice_id') {
  const inv = await lockedRow(tx, accountId, async () => {
    const [row] = await tx
      .select({ id: invoices.id, patient_id: invoices.patient_id, voided_at: invoices.voided_at })
      .from(invoices)
      .where(and(eq(invoices.account_id, accountId), eq(invoices.id, invoiceId)));
    return row;
  });
  if (!inv) throw invalid(attribute, 'is not an invoice of this account', 'invalid_input');
  if (inv.voided_at) throw billingRule('The invoice is void: its lines cannot change');
}

export async function lineCount(tx: Db, accountId: number, invoiceId: number): Promise<number> {
  const [{ n }] = await tx
    .select({ n: count() })
    .from(table)
    .where(and(eq(table.account_id, accountId), eq(table.invoice_id, invoiceId)));
  return Number(n);
}

const announceInvoice = (invoiceId: number) => ({
  eventType: 'invoices.updated' as const,
  eventEntity: 'invoices',
  eventEntityId: invoiceId,
});

/**
 * POST /line_items: `lines: [...]` adds several atomically (then no single-line attribute may be sent);
 * otherwise the body is one line, which needs billable_item_id and quantity.
 */
export async function addLineItems(w: WriteContext, input: z.output<typeof addLinesInput>) {
  const { invoice_id, lines, ...one } = input;
  if (lines) {
    const stray = Object.keys(one);
    if (stray.length)
      throw new ApiError(
        'validation_failed',
        'Send either lines or one line, not both',
        Object.fromEntries(stray.map((k) => [k, ['is not allowed with lines']])),
      );
    return addLines(w, invoice_id, lines, true);
  }
  const { billable_item_id, quantity } = one;
  if (billable_item_id === undefined || quantity === undefined) {
    const missing = Object.entries({ billable_item_id, quantity }).filter(([, v]) => v === undefined);
    throw new ApiError(
      'validation_failed',
      'A line needs billable_item_id and quantity',
      Object.fromEntries(missing.map(([k]) => [k, ['is required']])),
    );
  }
  const [line] = await addLines(w, invoice_id, [{ ...one, billable_item_id, quantity }], false);
  return line;
}

/** One line, or several atomically. */
async function addLines(w: WriteContext, invoiceId: number, lines: LineInput[], several: boolean) {
  const acc = w.account.id;
  const ids = await w.db.transaction(async (tx) => {
    await writableInvoice(tx, acc, invoiceId);
    const priced = await priceLines(tx, acc, lines, (i, a) => (several ? `lines.${i}.${a}` : a));
    const created = await insertLines(tx, acc, invoiceId, priced);
    await retotalInvoice(tx, acc, invoiceId, stamp(w));
    await recordWrite(tx, {
      ...recorded(w),
      entity: 'line_items',
      entityId: created[0],
      action: 'created',
      changes: { invoice_id: invoiceId, lines: created },
      ...announceInvoice(invoiceId),
    });
    return created;
  });
  return (await findRows(w.db.db, lineItems, acc, ids)).map((r) => lineItems.toRecord(r));
}

export async function updateLine(w: WriteContext, id: number, input: UpdateInput<typeof lineItems>) {
  const acc = w.account.id;
  await w.db.transaction(async (tx) => {
    const found = await findRow(tx, lineItems, acc, id);
    if (!found) throw notFound('Line item');
    if (input.invoice_id !== undefined && input.invoice_id !== found.invoice_id)
      throw invalid('invoice_id', 'a line cannot move to another invoice', 'invalid_input');
    const invoiceId = found.invoice_id;
    await writableInvoice(tx, acc, invoiceId);
    // Read again under the lock: a concurrent write may have changed or removed the line.
    const before = await findRow(tx, lineItems, acc, id);
    if (!before) throw notFound('Line item');
    const stored = lineItems.toRecord(before);
    // A new billable item brings its own price and name unless they are sent too.
    const sameItem = input.billable_item_id === undefined || input.billable_item_id === stored.billable_item_id;
    const [priced] = await priceLines(
      tx,
      acc,
      [
        {
          billable_item_id: input.billable_item_id ?? stored.billable_item_id,
          quantity: input.quantity ?? stored.quantity,
          unit_price: input.unit_price ?? (sameItem ? stored.unit_price : undefined),
          discount: input.discount ?? stored.discount,
          description: input.description ?? (sameItem ? stored.description : undefined),
        },
      ],
      (_, a) => a,
    );
    const { metadata: _m, ...columns } = priced;
    const metadata = input.metadata !== undefined ? mergedMetadataOrFail(before.metadata, input.metadata) : undefined;
    await tx
      .update(table)
      .set({ ...columns, ...(metadata ? { metadata } : {}), updated_at: stamp(w) })
      .where(and(eq(table.account_id, acc), eq(table.id, id)));
    await retotalInvoice(tx, acc, invoiceId, stamp(w));
    await recordWrite(tx, {
      ...recorded(w),
      entity: 'line_items',
      entityId: id,
      action: 'updated',
      changes: input,
      ...announceInvoice(invoiceId),
    });
  });
  return lineItems.toRecord((await findRow(w.db.db, lineItems, acc, id))!);
}

export async function deleteLine(w: WriteContext, id: number): Promise<void> {
  const acc = w.account.id;
  await w.db.transaction(async (tx) => {
    const found = await findRow(tx, lineItems, acc, id);
    if (!found) throw notFound('Line item');
    const invoiceId = found.invoice_id;
    await writableInvoice(tx, acc, invoiceId);
    if (!(await findRow(tx, lineItems, acc, id))) throw notFound('Line item');
    if ((await lineCount(tx, acc, invoiceId)) <= 1)
      throw billingRule('An invoice keeps at least one line; void the invoice instead');
    await tx.delete(table).where(and(eq(table.account_id, acc), eq(table.id, id)));
    await retotalInvoice(tx, acc, invoiceId, stamp(w));
    await recordWrite(tx, {
      ...recorded(w),
      entity: 'line_items',
      entityId: id,
      action: 'deleted',
      changes: { invoice_id: invoiceId },
      ...announceInvoice(invoiceId),
    });
  });
}
