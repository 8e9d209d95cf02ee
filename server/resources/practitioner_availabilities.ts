import * as t from '../../db/schema';
import { defineResource } from './define';
import { z } from 'zod';
import { f, recordId, standardFields } from './fields';
import { clockTime, optionalText, WEEKDAYS } from './staff-inputs';

/**
 * The rows staff keep in the portal's weekly grid: working hours and breaks. The other types (dated
 * exceptions, blockouts, guides) are read as stored and not yet written by staff.
 */
export const STAFF_AVAILABILITY_TYPES = ['open', 'break'] as const;

export const practitionerAvailabilities = defineResource({
  name: 'practitioner_availabilities',
  singular: 'practitioner availability',
  description: 'Availability windows on the calendar: weekly rows (day + HH:MM) and one-off dated rows (wall time). Read-only.',
  table: t.practitionerAvailabilities,
  fields: {
    id: f.id(),
    type: f.enum(t.AVAILABILITY_TYPES, { nullable: true, filterable: true, sortable: true, staff: 'required', input: z.enum(STAFF_AVAILABILITY_TYPES) }),
    starts_at: f.string({ nullable: true, filterable: true, sortable: true, description: 'HH:MM on weekly rows; YYYY-MM-DDTHH:MM:SS on dated rows', staff: 'required', input: clockTime(false) }),
    ends_at: f.string({ nullable: true, filterable: true, sortable: true, description: 'Same formats as starts_at', staff: 'required', input: clockTime(true) }),
    day: f.string({ nullable: true, filterable: true, sortable: true, description: '0 = Sunday … 6 = Saturday on weekly rows; null on dated rows', staff: 'required', input: z.enum(WEEKDAYS, 'Choose a day of the week') }),
    online_booking: f.boolean({ nullable: true, filterable: true, staff: 'optional' }),
    description: f.string({ nullable: true, filterable: true, staff: 'optional', input: optionalText() }),
    color: f.string({ nullable: true, filterable: true }),
    resource_id: f.ref({ nullable: true, filterable: true }),
    span_all_columns: f.boolean({ nullable: true, filterable: true }),
    practitioner_id: f.ref({ nullable: true, filterable: true, sortable: true, staff: 'required', input: recordId }),
    location_id: f.ref({ nullable: true, filterable: true, sortable: true, staff: 'required', input: recordId }),
    ...standardFields(),
  },
});
