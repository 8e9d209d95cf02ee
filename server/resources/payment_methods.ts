import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, standardFields } from './fields';
import { nameInput, sortOrderInput } from './staff-inputs';

export const paymentMethods = defineResource({
  name: 'payment_methods',
  singular: 'payment method',
  permission: 'practice',
  description:
    'Ways a payment is taken. Only active, non-card methods can be used for payments through the API. Read-only.',
  table: t.paymentMethods,
  fields: {
    id: f.id(),
    name: f.string({ filterable: true, staff: 'required', input: nameInput() }),
    type: f.enum(t.PAYMENT_METHOD_TYPES, {
      description: 'card methods cannot be recorded through the API',
      staff: 'required',
    }),
    active: f.boolean({
      filterable: true,
      sortable: true,
      description: 'Only active methods can be chosen for a new payment',
      staff: 'optional',
    }),
    sort_order: f.integer({ filterable: true, sortable: true, staff: 'optional', input: sortOrderInput }),
    ...standardFields(),
  },
});
