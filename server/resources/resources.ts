import { z } from 'zod';
import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, ID_MAX, standardFields } from './fields';
import { colourInput, nameInput, optionalText } from './staff-inputs';

export const resources = defineResource({
  name: 'resources',
  singular: 'resource',
  permission: 'practice',
  description: 'Calendar resources: rooms, tables, benches. Read-only.',
  table: t.resources,
  fields: {
    id: f.id(),
    location_id: f.ref({
      filterable: true,
      sortable: true,
      staff: 'required',
      input: z.number('Choose a location').int().min(1, 'Choose a location').max(ID_MAX),
    }),
    name: f.string({ filterable: true, sortable: true, staff: 'required', input: nameInput() }),
    public_name: f.string({ nullable: true, filterable: true, staff: 'optional', input: optionalText() }),
    description: f.string({ nullable: true, staff: 'optional', input: optionalText(1000) }),
    color: f.string({ nullable: true, staff: 'optional', input: colourInput }),
    sort_order: f.integer({
      filterable: true,
      sortable: true,
      staff: 'optional',
      input: z
        .number('Enter a whole number')
        .int('Use a whole number')
        .min(0, 'Use 0 or more')
        .max(9999, 'Use at most 9999'),
    }),
    status: f.enum(['active', 'inactive', 'archived'], {
      filterable: true,
      description: 'active: bookable; inactive: temporarily out of use; archived: retired',
      staff: 'optional',
    }),
    locked: f.boolean({
      filterable: true,
      staff: 'optional',
      description:
        'A marker the clinic sets for a room or resource its staff should leave as it is (e.g. shared with the building): reported, not enforced; it does not stop bookings or changes',
    }),
    ...standardFields(),
  },
});
