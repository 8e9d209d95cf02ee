import * as t from '../../db/schema';
import { formatMoney } from '../values/money';
import { defineResource } from './define';
import { f, standardFields } from './fields';

export const billableItems = defineResource({
  name: 'billable_items',
  singular: 'billable item',
  description: 'Services and products that invoice lines are made from. Read-only.',
  table: t.billableItems,
  fields: {
    id: f.id(),
    name: f.string({ filterable: true, sortable: true }),
    item_code: f.string({ nullable: true, filterable: true, sortable: true }),
    item_type: f.enum(['service', 'product', 'other'], { filterable: true }),
    price: f.decimal({ column: false, description: 'Unit price in the account currency, as a decimal string' }),
    tax_rate: f.decimal({ column: false, description: 'Tax rate in percent, as a decimal string (e.g. "20.00")' }),
    active: f.boolean({ filterable: true }),
    ...standardFields(),
  },
  compute: (row) => ({
    price: formatMoney(row.price_minor as number),
    tax_rate: formatMoney(row.tax_rate_bp as number),
  }),
});
