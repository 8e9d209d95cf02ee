import { z } from 'zod';
import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, standardFields } from './fields';

export const practitioners = defineResource({
  name: 'practitioners',
  singular: 'practitioner',
  description: 'Clinicians whose diaries hold appointments. Read-only.',
  table: t.practitioners,
  fields: {
    id: f.id(),
    first_name: f.string({ filterable: true, sortable: true }),
    last_name: f.string({ filterable: true, sortable: true }),
    title: f.string({ nullable: true, filterable: true }),
    designation: f.string({ nullable: true, filterable: true }),
    email: f.string({ nullable: true, filterable: true }),
    active: f.boolean({ filterable: true }),
    online_booking: f.boolean({ filterable: true, description: 'Whether the practitioner takes online bookings' }),
    location_ids: f.array(z.array(z.number().int()), { description: 'Locations the practitioner works at' }),
    appointment_type_ids: f.array(z.array(z.number().int()), { description: 'Appointment types the practitioner offers' }),
    ...standardFields(),
  },
});
