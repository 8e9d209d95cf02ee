/**
 * availability: not a table but a search. Its query and slot shape are declared here once; they drive
 * validation, OpenAPI and GET /schema/availability.
 */
import { z } from 'zod';
import { calendarDay } from '../values/calendar';
import { ID_MAX } from './fields';
import type { KeyGroup } from '../auth/key-groups';

/** GET /availability searches at most this many days, and a week when `to` is not sent. */
export const MAX_RANGE_DAYS = 31;
export const DEFAULT_RANGE_DAYS = 7;

/** The group a restricted key needs for the availability search (server/auth/key-groups.ts). */
export const AVAILABILITY_PERMISSION = 'scheduling' satisfies KeyGroup;

export const AVAILABILITY_DESCRIPTION =
  `Free slots of one appointment type at one location over up to ${MAX_RANGE_DAYS} days, ordered by time then practitioner. ` +
  "Slots lie on a grid of the type's duration from the start of each stretch of working time, never in the past.";

const id = (what: string) => z.coerce.number().int().min(1).max(ID_MAX).describe(what);
const day = calendarDay();

/** Query of GET /availability: declared once, it drives validation, OpenAPI and /schema/availability. */
export const availabilityQuery = z.strictObject({
  location_id: id('Location (required)'),
  appointment_type_id: id('Appointment type (required)'),
  practitioner_id: id(
    'Only this practitioner; default: every active practitioner who offers the type at the location',
  ).optional(),
  from: day.optional().describe('First calendar day (account timezone), inclusive; default today'),
  to: day
    .optional()
    .describe(
      `Last calendar day, inclusive; default from + ${DEFAULT_RANGE_DAYS - 1}; at most ${MAX_RANGE_DAYS} days in all`,
    ),
  visibility: z
    .enum(['all', 'online'])
    .default('all')
    .describe(
      'all: front-desk view; online: patient view (online-bookable windows, practitioners, types and locations only)',
    ),
  rescheduled_appointment_id: id('An appointment being moved: its own time does not count as busy').optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .optional()
    .describe('Return only the first N slots (next available)'),
});

export const slotSchema = z.object({
  starts_at: z.string().describe('Clinic wall time'),
  ends_at: z.string().describe('Clinic wall time'),
  practitioner_id: z.number().int(),
  location_id: z.number().int(),
  appointment_type_id: z.number().int(),
  resource_id: z.number().int().nullable().describe('The resource the booking would take'),
  places_left: z.number().int().nullable().describe('Places open in a group session; null for one-to-one types'),
});

export const availabilityOutput = z.object({
  data: z.array(slotSchema),
  meta: z.object({
    from: z.string(),
    to: z.string(),
    timezone: z.string(),
    total: z.number().int().describe('Free slots in the range (before limit)'),
    unavailable_dates: z.array(z.string()).describe('Days in the range with nothing free'),
  }),
});

/** How the search decides, as GET /schema/availability states it (details in docs/decisions.md). */
export const AVAILABILITY_RULES = [
  'working time = weekly open rows and dated custom_availability rows of the practitioner at the location, minus blockout, break and closed rows',
  'closing rows apply to their practitioner wherever they work, and rows without a practitioner to the whole location; a closing row with resource_id and without span_all_columns closes only that resource',
  "appt_guide rows neither open nor close time; a resource_id on an opening row puts that window's slots in that resource",
  "slots fit the type's duration on a grid of that duration from the start of each stretch of working time; never in the past",
  'a slot clashes with any non-cancelled appointment of the practitioner, or of the resource it would take; a group type stays available while its session has places',
  'visibility=online: only windows with online_booking; a location, type or practitioner not enabled for online booking is 422 not_online_bookable',
  'no practitioner offering the type at the location, or none with working hours there: 422 availability_not_configured',
  'unknown location_id, appointment_type_id or practitioner_id: 422 location_not_found, appointment_type_not_found, practitioner_not_found',
];
