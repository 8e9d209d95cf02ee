import { z } from 'zod';
import * as t from '../../db/schema';
import { defineResource } from './define';
import { INVOICE } from './follows';
import { f, standardFields } from './fields';

export const lineItems = defineResource({
  name: 'line_items',
  singular: 'line item',
  permission: 'billing',
  area: 'billing',
  description:
    'Lines of invoices. POST adds one line, or several atomically with { invoice_id, lines: [...] }; PATCH and DELETE re-total the invoice. ' +
    'An invoice keeps at least one line (409 billing_rule); no line can be added to a voided invoice (409 billing_rule).',
  table: t.lineItems,
  follows: { parent: INVOICE, column: 'invoice_id' },
  write: ['create', 'update', 'delete'],
  rules: {
    create: [
      'one line: { invoice_id, billable_item_id, quantity, unit_price?, discount?, description? }; several: { invoice_id, lines: [ ... ] }, all or nothing (422 naming lines.N.attribute)',
      'billable_item_id must be an active billable item (422 invalid_input); discount at most quantity × unit price (422 invalid_input)',
      'tax = subtotal × the billable item tax rate, rounded half up to the minor unit, per line',
    ],
    update: ['re-totals the invoice; refused (409 billing_rule) when the invoice would owe less than is already paid'],
  },
  fields: {
    id: f.id(),
    invoice_id: f.ref({ filterable: true, write: 'required' }),
    billable_item_id: f.ref({
      filterable: true,
      write: 'required',
      description: 'From GET /billable_items; must be active',
    }),
    description: f.string({ maxLength: 500, write: 'optional', description: "Defaults to the billable item's name" }),
    quantity: f.integer({ write: 'required', input: z.number().int().min(1).max(10_000) }),
    unit_price: f.money({
      column: 'unit_price_minor',
      write: 'optional',
      description: "Defaults to the billable item's price",
    }),
    discount: f.money({
      column: 'discount_minor',
      write: 'optional',
      description: 'Amount off the line before tax; at most quantity × unit price',
    }),
    tax_rate: f.decimal({ column: false, description: 'Tax rate in percent (e.g. "20.00")' }),
    subtotal: f.money({ column: 'subtotal_minor', description: 'quantity × unit_price − discount' }),
    tax: f.money({ column: 'tax_minor' }),
    total: f.money({ column: 'total_minor', description: 'subtotal + tax' }),
    ...standardFields(),
  },
  compute: (row) => ({ tax_rate: (Number(row.tax_rate_bp) / 100).toFixed(2) }),
});

/** One line as written nested in an invoice or in `lines: [...]`: the create input without invoice_id. */
export const lineInput = lineItems.createInput.omit({ invoice_id: true });
export type LineInput = z.output<typeof lineInput>;

/** POST /line_items: the one-line body, or { invoice_id, lines: [...] } (then no single-line attribute). */
export const addLinesInput = lineItems.createInput.partial().extend({
  invoice_id: lineItems.createInput.shape.invoice_id,
  lines: z
    .array(lineInput)
    .min(1)
    .max(100)
    .optional()
    .describe('Several lines, added all or nothing; then no single-line attributes'),
});
