/** The calendar records a booking or an availability search refers to, with the spec's 422 codes. */
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { appointmentTypes, locations, practitioners, resources } from '../../../db/schema';
import { invalid } from '../../errors';
import type { BookableType } from './placement';

export async function loadLocation(db: Db, accountId: number, id: number, attribute = 'location_id') {
  const [row] = await db
    .select({ id: locations.id, online_booking: locations.online_booking })
    .from(locations)
    .where(and(eq(locations.account_id, accountId), eq(locations.id, id)));
  if (!row) throw invalid(attribute, 'is not a location of this account', 'location_not_found');
  return row;
}

export type AppointmentType = Awaited<ReturnType<typeof loadAppointmentType>>;

export async function loadAppointmentType(db: Db, accountId: number, id: number) {
  const t = appointmentTypes;
  const [row] = await db
    .select({
      id: t.id,
      duration_minutes: t.duration_minutes,
      online_booking: t.online_booking,
      active: t.active,
      max_attendees: t.max_attendees,
      requires_resource: t.requires_resource,
    })
    .from(t)
    .where(and(eq(t.account_id, accountId), eq(t.id, id)));
  if (!row)
    throw invalid('appointment_type_id', 'is not an appointment type of this account', 'appointment_type_not_found');
  return row;
}

/** How the diary sees a type: a group type (more than one place) shares its slot among attendees. */
export const bookable = (t: AppointmentType): BookableType => ({
  id: t.id,
  maxAttendees: t.max_attendees != null && t.max_attendees > 1 ? t.max_attendees : null,
  requiresResource: t.requires_resource,
});

export type Practitioner = Awaited<ReturnType<typeof loadPractitioners>>[number];

/** Every practitioner of the account: a small table, filtered in memory by what each offers. */
export async function loadPractitioners(db: Db, accountId: number) {
  const p = practitioners;
  return db
    .select({
      id: p.id,
      active: p.active,
      online_booking: p.online_booking,
      location_ids: p.location_ids,
      appointment_type_ids: p.appointment_type_ids,
    })
    .from(p)
    .where(eq(p.account_id, accountId))
    .orderBy(asc(p.id));
}

export const practitionerNotFound = () =>
  invalid('practitioner_id', 'is not a practitioner of this account', 'practitioner_not_found');

export async function loadPractitioner(db: Db, accountId: number, id: number): Promise<Practitioner> {
  const p = practitioners;
  const [row] = await db
    .select({
      id: p.id,
      active: p.active,
      online_booking: p.online_booking,
      location_ids: p.location_ids,
      appointment_type_ids: p.appointment_type_ids,
    })
    .from(p)
    .where(and(eq(p.account_id, accountId), eq(p.id, id)));
  if (!row) throw practitionerNotFound();
  return row;
}

/** Whether a practitioner takes bookings of a type at a location. */
export const offers = (p: Practitioner, locationId: number, typeId: number) =>
  p.active && p.location_ids.includes(locationId) && p.appointment_type_ids.includes(typeId);

/**
 * Every resource of a location in calendar column order, whatever its status: a practitioner's working
 * window may sit in any column; only the active ones take bookings.
 */
export async function locationResources(
  db: Db,
  accountId: number,
  locationId: number,
): Promise<{ id: number; active: boolean }[]> {
  const r = resources;
  const rows = await db
    .select({ id: r.id, status: r.status })
    .from(r)
    .where(and(eq(r.account_id, accountId), eq(r.location_id, locationId)))
    .orderBy(asc(r.sort_order), asc(r.id));
  return rows.map((x) => ({ id: x.id, active: x.status === 'active' }));
}

/** The bookable (active) ones of a location's resources, in calendar column order. */
export const bookableResources = (columns: { id: number; active: boolean }[]): number[] =>
  columns.filter((c) => c.active).map((c) => c.id);

/** A location's bookable resources, in calendar column order (a booking reads them in its transaction). */
export async function activeResources(db: Db, accountId: number, locationId: number): Promise<number[]> {
  return bookableResources(await locationResources(db, accountId, locationId));
}

/** A resource named on a booking must exist, be active and be at the booking's location. */
export async function assertResourceUsable(db: Db, accountId: number, id: number, locationId: number): Promise<void> {
  const [row] = await db
    .select({ location_id: resources.location_id, status: resources.status })
    .from(resources)
    .where(and(eq(resources.account_id, accountId), eq(resources.id, id)));
  if (!row) throw invalid('resource_id', 'is not a resource of this account', 'resource_unavailable');
  if (row.status !== 'active') throw invalid('resource_id', `is ${row.status}, not bookable`, 'resource_unavailable');
  if (row.location_id !== locationId) throw invalid('resource_id', 'is at another location', 'resource_unavailable');
}
