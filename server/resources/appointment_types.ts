import * as t from '../../db/schema';
import { defineResource } from './define';
import { z } from 'zod';
import { f, standardFields } from './fields';
import { colourInput, nameInput, optionalText } from './staff-inputs';

export const appointmentTypes = defineResource({
  name: 'appointment_types',
  singular: 'appointment type',
  permission: 'practice',
  description: 'Kinds of appointment with their duration and booking rules. Read-only.',
  table: t.appointmentTypes,
  fields: {
    id: f.id(),
    name: f.string({ filterable: true, sortable: true, staff: 'required', input: nameInput() }),
    description: f.string({ nullable: true, staff: 'optional', input: optionalText(1000) }),
    category: f.string({ nullable: true, filterable: true, staff: 'optional', input: optionalText() }),
    duration_minutes: f.integer({
      filterable: true,
      sortable: true,
      staff: 'required',
      input: z
        .number('Enter the length in minutes')
        .int('Use whole minutes')
        .min(5, 'Use at least 5 minutes')
        .max(600, 'Use at most 600 minutes (10 hours)'),
    }),
    color: f.string({ nullable: true, staff: 'optional', input: colourInput }),
    online_booking: f.boolean({ filterable: true, staff: 'optional' }),
    active: f.boolean({ filterable: true, staff: 'optional' }),
    max_attendees: f.integer({
      nullable: true,
      filterable: true,
      description: 'Places in a group appointment; null for one-to-one types',
      staff: 'optional',
      input: z
        .number()
        .int('Use a whole number')
        .min(2, 'A group has at least 2 places; leave it empty for one-to-one')
        .max(1000)
        .nullable(),
    }),
    requires_resource: f.boolean({
      filterable: true,
      description: 'Whether a booking must name a resource (room, table...)',
      staff: 'optional',
    }),
    ...standardFields(),
  },
});
