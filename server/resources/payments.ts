import { isNull } from 'drizzle-orm';
import { z } from 'zod';
import * as t from '../../db/schema';
import { fromDbJson } from '../../db/dialect';
import type { Embed } from '../../db/json';
import { formatMoney } from '../values/money';
import { defineResource } from './define';
import { f, standardFields } from './fields';
import { paymentAllocations } from './payment_allocations';

/** An allocation made with the payment: POST /payment_allocations without payment_id. */
export const allocationInput = paymentAllocations.createInput.pick({ invoice_id: true, amount: true });

const allocationRead = z.object({
  id: z.number().int(),
  invoice_id: z.number().int(),
  amount: z.string(),
  payer: z.enum(t.ALLOCATION_PAYERS),
});
type StoredAllocation = {
  id: number;
  invoice_id: number;
  amount_minor: number;
  payer: (typeof t.ALLOCATION_PAYERS)[number];
};

const ALLOCATIONS: Embed = {
  fields: { id: 'a.id', invoice_id: 'a.invoice_id', amount_minor: 'a.amount_minor', payer: 'a.payer' },
  from: 'payment_allocations a',
  account: 'a.account_id',
  key: 'a.payment_id',
  orderBy: 'a.id',
};

export const payments = defineResource({
  name: 'payments',
  singular: 'payment',
  permission: 'billing',
  area: 'billing',
  description:
    'Payments received from patients or third parties. status follows from allocations and refunds (unallocated, partially_allocated, allocated, refunded); ' +
    'DELETE voids the payment and releases its allocations (404 afterwards).',
  table: t.payments,
  scope: (table) => isNull((table as typeof t.payments).voided_at),
  embeds: { allocation_rows: ALLOCATIONS },
  compute: (row) => ({
    allocations: (fromDbJson<StoredAllocation[] | null>(row.allocation_rows) ?? []).map((a) => ({
      id: a.id,
      invoice_id: a.invoice_id,
      amount: formatMoney(a.amount_minor),
      payer: a.payer,
    })),
  }),
  write: ['create', 'delete'],
  deleteSemantics:
    'voids the payment and releases its allocations; a refunded payment cannot be voided (409 billing_rule); 404 afterwards',
  rules: {
    create: [
      'payment_method_id must be an active method (422 payment_method_unavailable) and not a card method (422 card_payment_not_allowed)',
      'amount > 0; allocations: [{ invoice_id, amount }] are made in the same transaction, each as POST /payment_allocations',
      'an insurance method pays the third-party part of an invoice; any other method the patient part',
    ],
  },
  fields: {
    id: f.id(),
    patient_id: f.ref({ filterable: true, sortable: true, write: 'required' }),
    payment_method_id: f.ref({ filterable: true, write: 'required' }),
    amount: f.money({ column: 'amount_minor', filterable: true, write: 'required', positive: true }),
    allocated: f.money({ column: 'allocated_minor', description: 'Allocated to invoices' }),
    refunded: f.money({ column: 'refunded_minor' }),
    unallocated: f.money({
      column: 'unallocated_minor',
      filterable: true,
      description: 'amount − allocated − refunded: what can still be allocated or refunded',
    }),
    payment_date: f.date({
      filterable: true,
      sortable: true,
      write: 'optional',
      description: 'Defaults to today in the account timezone',
    }),
    note: f.string({ nullable: true, write: 'optional', input: z.string().max(10_000).nullable() }),
    status: f.enum(t.PAYMENT_READ_STATUSES, { filterable: true }),
    allocations: f.array(z.array(allocationRead), {
      column: false,
      write: 'optional',
      input: z.array(allocationInput).max(100),
    }),
    ...standardFields(),
  },
});
