import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, standardFields } from './fields';
import { countryInput, nameInput, optionalEmail, optionalText } from './staff-inputs';

export const locations = defineResource({
  name: 'locations',
  singular: 'location',
  permission: 'practice',
  description: 'Clinic sites. Read-only.',
  table: t.locations,
  fields: {
    id: f.id(),
    name: f.string({ filterable: true, sortable: true, staff: 'required', input: nameInput() }),
    line_1: f.string({ nullable: true, staff: 'optional', input: optionalText() }),
    city: f.string({ nullable: true, filterable: true, staff: 'optional', input: optionalText() }),
    postal_code: f.string({ nullable: true, filterable: true, staff: 'optional', input: optionalText(20) }),
    country: f.string({
      nullable: true,
      filterable: true,
      description: 'ISO 3166-1 alpha-2',
      staff: 'optional',
      input: countryInput,
    }),
    phone: f.string({ nullable: true, staff: 'optional', input: optionalText(50) }),
    email: f.string({ nullable: true, staff: 'optional', input: optionalEmail }),
    online_booking: f.boolean({
      filterable: true,
      description: 'Whether patients can book this location online',
      staff: 'optional',
    }),
    ...standardFields(),
  },
});
