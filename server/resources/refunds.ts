import { z } from 'zod';
import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, standardFields } from './fields';

export const refunds = defineResource({
  name: 'refunds',
  singular: 'refund',
  permission: 'billing',
  area: 'billing',
  description: 'Money paid back from a payment: at most its unallocated amount.',
  table: t.refunds,
  write: ['create'],
  rules: {
    create: [
      "amount > 0 and at most the payment's unallocated amount (409 billing_rule); deallocate first to refund allocated money",
    ],
  },
  fields: {
    id: f.id(),
    payment_id: f.ref({ filterable: true, sortable: true, write: 'required' }),
    amount: f.money({ column: 'amount_minor', write: 'required', positive: true }),
    reason: f.string({ nullable: true, write: 'optional', input: z.string().max(500).nullable() }),
    ...standardFields(),
  },
});
