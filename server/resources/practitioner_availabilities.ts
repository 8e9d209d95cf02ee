import * as t from '../../db/schema';
import { PRACTITIONER } from './follows';
import { defineResource } from './define';
import { z } from 'zod';
import { f, recordId, standardFields } from './fields';
import { isWallTime } from '../values/wall-time';
import { clockTime, optionalText, WEEKDAYS } from './staff-inputs';

/**
 * The rows staff keep in the portal's weekly grid: working hours and breaks. Blockouts and guides are
 * read as stored and not written by staff.
 */
export const STAFF_AVAILABILITY_TYPES = ['open', 'break'] as const;
/**
 * The dated exceptions staff keep beside the grid (rows with a date instead of a weekday): `closed`
 * takes the practitioner off (a day off, a holiday closure; a whole day or some hours) and
 * `custom_availability` opens extra hours on that date, as the availability search reads them.
 */
export const STAFF_EXCEPTION_TYPES = ['closed', 'custom_availability'] as const;

export const practitionerAvailabilities = defineResource({
  name: 'practitioner_availabilities',
  singular: 'practitioner availability',
  permission: 'practice',
  description:
    'Availability windows on the calendar: weekly rows (day + HH:MM) and one-off dated rows (wall time). Read-only.',
  table: t.practitionerAvailabilities,
  follows: { parent: PRACTITIONER, column: 'practitioner_id' },
  fields: {
    id: f.id(),
    type: f.enum(t.AVAILABILITY_TYPES, {
      nullable: true,
      filterable: true,
      sortable: true,
      staff: 'required',
      input: z.enum(STAFF_AVAILABILITY_TYPES),
    }),
    starts_at: f.string({
      nullable: true,
      filterable: true,
      sortable: true,
      description: 'HH:MM on weekly rows; YYYY-MM-DDTHH:MM:SS on dated rows',
      staff: 'required',
      input: clockTime(false),
    }),
    ends_at: f.string({
      nullable: true,
      filterable: true,
      sortable: true,
      description: 'Same formats as starts_at',
      staff: 'required',
      input: clockTime(true),
    }),
    day: f.string({
      nullable: true,
      filterable: true,
      sortable: true,
      description: '0 = Sunday … 6 = Saturday on weekly rows; null on dated rows',
      staff: 'required',
      input: z.enum(WEEKDAYS, 'Choose a day of the week'),
    }),
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

/** A calendar date as staff pick it (YYYY-MM-DD, a real day); whether it is past is the domain's check. */
const dateInput = z
  .string()
  .refine((d) => /^\d{4}-\d{2}-\d{2}$/.test(d) && isWallTime(`${d}T00:00:00`), 'Choose a date such as 2026-12-24');

/**
 * What staff send for a dated exception: the declaration's own staff fields (practitioner, location,
 * description, online booking) with a date instead of a weekday, and HH:MM times that are both null for a
 * whole day. The domain (server/domain/practice/opening-hours.ts) stores it as a dated row.
 */
const exceptionFields = {
  type: z.enum(STAFF_EXCEPTION_TYPES, 'Choose time off or extra hours'),
  date: dateInput,
  starts_at: clockTime(false).nullable(),
  ends_at: clockTime(true).nullable(),
};
export const staffExceptionInput = practitionerAvailabilities.staffCreateInput
  .omit({ type: true, day: true, starts_at: true, ends_at: true })
  .extend(exceptionFields);
export const staffExceptionUpdate = practitionerAvailabilities.staffUpdateInput
  .omit({ type: true, day: true, starts_at: true, ends_at: true, practitioner_id: true, location_id: true })
  .extend({
    type: exceptionFields.type.optional(),
    date: dateInput.optional(),
    starts_at: exceptionFields.starts_at.optional(),
    ends_at: exceptionFields.ends_at.optional(),
  });

/**
 * A clinic-wide closure as staff enter it (a bank holiday): a date, optional hours, a note, and the
 * location it closes, or every location (null). Stored as dated `closed` rows without a practitioner,
 * one per location, which close the location for everyone (server/domain/scheduling/working-time.ts).
 */
export const staffClosureInput = z.strictObject({
  location_id: recordId.nullable(),
  date: dateInput,
  starts_at: clockTime(false).nullable(),
  ends_at: clockTime(true).nullable(),
  description: optionalText().optional(),
});
