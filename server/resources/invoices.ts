import { isNull } from 'drizzle-orm';
import { z } from 'zod';
import * as t from '../../db/schema';
import { fromDbJson } from '../../db/dialect';
import type { Embed } from '../../db/json';
import { formatMoney } from '../values/money';
import { defineResource } from './define';
import { f, standardFields } from './fields';
import { lineInput } from './line_items';

const LINE_FIELDS = [
  'id',
  'billable_item_id',
  'description',
  'quantity',
  'unit_price_minor',
  'discount_minor',
  'tax_rate_bp',
  'subtotal_minor',
  'tax_minor',
  'total_minor',
];
const LINES: Embed = {
  fields: Object.fromEntries(LINE_FIELDS.map((c) => [c, `l.${c}`])),
  from: 'line_items l',
  account: 'l.account_id',
  key: 'l.invoice_id',
  orderBy: 'l.id',
};

const lineRead = z.object({
  id: z.number().int(),
  billable_item_id: z.number().int(),
  description: z.string(),
  quantity: z.number().int(),
  unit_price: z.string(),
  discount: z.string(),
  tax_rate: z.string(),
  subtotal: z.string(),
  tax: z.string(),
  total: z.string(),
});

type StoredLine = { id: number; billable_item_id: number; description: string; quantity: number } & Record<
  'unit_price_minor' | 'discount_minor' | 'tax_rate_bp' | 'subtotal_minor' | 'tax_minor' | 'total_minor',
  number
>;

const readLine = (l: StoredLine) => ({
  id: l.id,
  billable_item_id: l.billable_item_id,
  description: l.description,
  quantity: l.quantity,
  unit_price: formatMoney(l.unit_price_minor),
  discount: formatMoney(l.discount_minor),
  tax_rate: (l.tax_rate_bp / 100).toFixed(2),
  subtotal: formatMoney(l.subtotal_minor),
  tax: formatMoney(l.tax_minor),
  total: formatMoney(l.total_minor),
});

const summed = { filterable: true, sortable: true } as const;
const filtered = { filterable: true } as const;

export const invoices = defineResource({
  name: 'invoices',
  singular: 'invoice',
  permission: 'billing',
  area: 'billing',
  description:
    'Invoices with their lines. state follows from the balances (open, partially_paid, paid); DELETE voids (a second DELETE is 409 billing_rule). ' +
    'Part of the total may be billed to a third party (third_party_amount): allocations of payments by an insurance method pay that part.',
  table: t.invoices,
  scope: (table) => isNull((table as typeof t.invoices).voided_at),
  embeds: { lines: LINES },
  everyday: [
    { asked: 'invoices of a period', eq: [], range: 'invoice_date' },
    { asked: "a patient's invoices over a period", eq: ['patient_id'], range: 'invoice_date' },
  ],
  compute: (row) => ({ line_items: (fromDbJson<StoredLine[] | null>(row.lines) ?? []).map(readLine) }),
  write: ['create', 'update', 'delete'],
  deleteSemantics:
    'voids the invoice and releases its allocations; ?void_payments=true also voids the payments that paid this invoice and nothing else; deleting it again is 409 billing_rule',
  rules: {
    create: [
      'line_items: at least one (zero lines is 422 billing_rule); each as in POST /line_items without invoice_id',
      'number is assigned: sequential per account, never reused',
      'invoice_date defaults to today in the account timezone',
      'third_party_amount (default 0.00) is the part of the total billed to third_party_payer; at most the total (409 billing_rule)',
    ],
    update: [
      'without line_items only the header changes; note: null clears the note, an absent note leaves it',
      'line_items reconciles by id: a stored id updates that line, no id adds one, a stored line left out is removed; an empty list is 409 billing_rule',
      'refused (409 billing_rule) when the invoice would owe less than is already paid, or the patient changes while payments are allocated',
    ],
  },
  fields: {
    id: f.id(),
    number: f.integer({ filterable: true, sortable: true, description: 'Sequential per account, never reused' }),
    state: f.enum(t.INVOICE_READ_STATES, {
      filterable: true,
      description: 'open: nothing paid; partially_paid; paid: balance 0',
    }),
    type: f.enum(t.INVOICE_TYPES, {
      filterable: true,
      description:
        'patient: all billed to the patient; split: part to a third party; third_party: all to a third party',
    }),
    patient_id: f.ref({ filterable: true, sortable: true, write: 'required' }),
    practitioner_id: f.ref({
      nullable: true,
      filterable: true,
      write: 'optional',
      description: "Defaults to the appointment's practitioner when `appointment_id` is given and this is not",
    }),
    location_id: f.ref({
      nullable: true,
      filterable: true,
      write: 'optional',
      description: "Defaults to the appointment's location when `appointment_id` is given and this is not",
    }),
    appointment_id: f.ref({
      nullable: true,
      filterable: true,
      write: 'optional',
      description: "An appointment of the invoice's patient (422 invalid_input otherwise)",
    }),
    invoice_date: f.date({
      filterable: true,
      sortable: true,
      write: 'optional',
      description: 'Defaults to today in the account timezone',
    }),
    note: f.string({ nullable: true, filterable: true, write: 'optional', input: z.string().max(10_000).nullable() }),
    third_party_payer: f.string({
      maxLength: 255,
      nullable: true,
      write: 'optional',
      description: 'Who pays the third-party part (an insurer)',
    }),
    third_party_amount: f.money({
      column: 'third_party_minor',
      write: 'optional',
      description: 'The part of the total billed to the third party',
    }),
    subtotal: f.money({
      column: 'subtotal_minor',
      ...filtered,
      description: 'Sum of the lines after discounts, before tax',
    }),
    discount: f.money({ column: 'discount_minor', description: 'Sum of the line discounts' }),
    tax: f.money({ column: 'tax_minor' }),
    total: f.money({ column: 'total_minor', ...summed, description: 'subtotal + tax' }),
    amount_paid: f.money({ column: 'paid_minor', ...filtered, description: 'Allocated payments' }),
    balance: f.money({
      column: 'balance_minor',
      ...summed,
      description: 'total − amount_paid = patient_balance + third_party_balance',
    }),
    patient_balance: f.money({ column: 'patient_balance_minor', ...filtered }),
    third_party_balance: f.money({ column: 'third_party_balance_minor', ...filtered }),
    line_items: f.array(z.array(lineRead), {
      column: false,
      write: 'optional',
      input: z
        .array(
          lineInput.extend({
            id: z.number().int().min(1).optional().describe('A stored line of this invoice (PATCH)'),
          }),
        )
        .max(500),
    }),
    ...standardFields(),
  },
});
