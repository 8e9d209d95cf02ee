import { z } from 'zod';
import * as t from '../../db/schema';
import { formatMoney, MONEY_PATTERN, parseMoney } from '../values/money';
import { defineResource } from './define';
import { f, standardFields } from './fields';
import { nameInput, optionalText } from './staff-inputs';

/** A price as staff type it, in the clinic's currency ("45", "45.00"); stored in minor units by the domain (server/values/money.ts). */
const priceInput = z
  .string('Enter a price such as 45.00')
  .trim()
  .regex(MONEY_PATTERN, 'Enter a price such as 45.00 (at most two decimals, no currency sign)');
/** A tax rate in percent, 0 to 100 with at most two decimals (blank: no tax); stored in basis points. */
const taxRateInput = z
  .string('Enter a tax rate in percent, such as 20')
  .trim()
  .transform((v) => v || '0')
  .pipe(
    z
      .string()
      .regex(MONEY_PATTERN, 'Enter a tax rate in percent, such as 20 or 7.5')
      .refine((v) => parseMoney(v) <= 10_000, 'Use a rate from 0 to 100 percent'),
  );

export const billableItems = defineResource({
  name: 'billable_items',
  singular: 'billable item',
  permission: 'practice',
  description: 'Services and products that invoice lines are made from. Read-only.',
  table: t.billableItems,
  fields: {
    id: f.id(),
    name: f.string({ filterable: true, sortable: true, staff: 'required', input: nameInput() }),
    item_code: f.string({
      nullable: true,
      filterable: true,
      sortable: true,
      staff: 'optional',
      input: optionalText(50),
    }),
    item_type: f.enum(['service', 'product', 'other'], { filterable: true, staff: 'required' }),
    price: f.decimal({
      column: false,
      description: 'Unit price in the account currency, as a decimal string',
      staff: 'required',
      input: priceInput,
    }),
    tax_rate: f.decimal({
      column: false,
      description: 'Tax rate in percent, as a decimal string (e.g. "20.00")',
      staff: 'optional',
      input: taxRateInput,
    }),
    active: f.boolean({ filterable: true, staff: 'optional' }),
    ...standardFields(),
  },
  compute: (row) => ({
    price: formatMoney(row.price_minor as number),
    tax_rate: formatMoney(row.tax_rate_bp as number),
  }),
});
