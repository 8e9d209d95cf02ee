import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, standardFields } from './fields';

export const paymentAllocations = defineResource({
  name: 'payment_allocations',
  singular: 'payment allocation',
  permission: 'billing',
  area: 'billing',
  description:
    'Parts of payments applied to invoices. DELETE gives the amount back to both the payment and the invoice.',
  table: t.paymentAllocations,
  write: ['create', 'delete'],
  deleteSemantics: 'removes the allocation; refused for a refunded payment (409 allocation_remove_failed)',
  rules: {
    create: [
      'payment and invoice of the same patient (409 billing_rule)',
      "amount at most the payment's unallocated amount and the balance of the invoice part it pays (409 billing_rule)",
      'payer is third_party for a payment by an insurance method (it pays third_party_balance), else patient',
    ],
  },
  fields: {
    id: f.id(),
    payment_id: f.ref({ filterable: true, write: 'required' }),
    invoice_id: f.ref({ filterable: true, write: 'required' }),
    amount: f.money({ column: 'amount_minor', write: 'required', positive: true }),
    payer: f.enum(t.ALLOCATION_PAYERS, { filterable: true, description: 'Which part of the invoice it pays' }),
    ...standardFields(),
  },
});
