import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, standardFields } from './fields';

export const practitionerAvailabilities = defineResource({
  name: 'practitioner_availabilities',
  singular: 'practitioner availability',
  description: 'Availability windows on the calendar: weekly rows (day + HH:MM) and one-off dated rows (wall time). Read-only.',
  table: t.practitionerAvailabilities,
  fields: {
    id: f.id(),
    type: f.enum(t.AVAILABILITY_TYPES, { nullable: true, filterable: true, sortable: true }),
    starts_at: f.string({ nullable: true, filterable: true, sortable: true, description: 'HH:MM on weekly rows; YYYY-MM-DDTHH:MM:SS on dated rows' }),
    ends_at: f.string({ nullable: true, filterable: true, sortable: true, description: 'Same formats as starts_at' }),
    day: f.string({ nullable: true, filterable: true, sortable: true, description: '0 = Sunday … 6 = Saturday on weekly rows; null on dated rows' }),
    online_booking: f.boolean({ nullable: true, filterable: true }),
    description: f.string({ nullable: true, filterable: true }),
    color: f.string({ nullable: true, filterable: true }),
    resource_id: f.ref({ nullable: true, filterable: true }),
    span_all_columns: f.boolean({ nullable: true, filterable: true }),
    practitioner_id: f.ref({ nullable: true, filterable: true, sortable: true }),
    location_id: f.ref({ nullable: true, filterable: true, sortable: true }),
    ...standardFields(),
  },
});
