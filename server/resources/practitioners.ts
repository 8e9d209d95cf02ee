import { z } from 'zod';
import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, standardFields } from './fields';
import { idListInput, nameInput, optionalEmail, optionalText } from './staff-inputs';

export const practitioners = defineResource({
  name: 'practitioners',
  singular: 'practitioner',
  permission: 'practice',
  description: 'Clinicians whose diaries hold appointments. Read-only.',
  table: t.practitioners,
  fields: {
    id: f.id(),
    first_name: f.string({ filterable: true, sortable: true, staff: 'required', input: nameInput('a first name') }),
    last_name: f.string({ filterable: true, sortable: true, staff: 'required', input: nameInput('a last name') }),
    title: f.string({ nullable: true, filterable: true, staff: 'optional', input: optionalText(50) }),
    designation: f.string({ nullable: true, filterable: true, staff: 'optional', input: optionalText() }),
    email: f.string({ nullable: true, filterable: true, staff: 'optional', input: optionalEmail }),
    active: f.boolean({ filterable: true, staff: 'optional' }),
    online_booking: f.boolean({
      filterable: true,
      description: 'Whether the practitioner takes online bookings',
      staff: 'optional',
    }),
    location_ids: f.array(z.array(z.number().int()), {
      description: 'Locations the practitioner works at',
      staff: 'optional',
      input: idListInput,
    }),
    appointment_type_ids: f.array(z.array(z.number().int()), {
      description: 'Appointment types the practitioner offers',
      staff: 'optional',
      input: idListInput,
    }),
    ...standardFields(),
  },
});
