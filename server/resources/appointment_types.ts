import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, standardFields } from './fields';

export const appointmentTypes = defineResource({
  name: 'appointment_types',
  singular: 'appointment type',
  description: 'Kinds of appointment with their duration and booking rules. Read-only.',
  table: t.appointmentTypes,
  fields: {
    id: f.id(),
    name: f.string({ filterable: true, sortable: true }),
    description: f.string({ nullable: true }),
    category: f.string({ nullable: true, filterable: true }),
    duration_minutes: f.integer({ filterable: true, sortable: true }),
    color: f.string({ nullable: true }),
    online_booking: f.boolean({ filterable: true }),
    active: f.boolean({ filterable: true }),
    max_attendees: f.integer({ nullable: true, filterable: true, description: 'Places in a group appointment; null for one-to-one types' }),
    requires_resource: f.boolean({ filterable: true, description: 'Whether a booking must name a resource (room, table...)' }),
    ...standardFields(),
  },
});
