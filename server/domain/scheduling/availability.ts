/**
 * GET /availability: free bookable slots of one appointment type at one location over up to 31 days.
 * Slots lie on a grid of the type's duration, anchored at the start of each stretch of working time
 * (after breaks and blockouts are taken out), never start in the past, and are exactly the ranges
 * POST /appointments would accept (same diary, same placement rule).
 */
import type { Db } from '../../../db/client';
import type { Account } from '../../context';
import { invalid } from '../../errors';
import { appointments } from '../../resources/appointments';
import { findRow } from '../../resources/queries';
import { activeResources, loadAppointmentType, loadLocation, loadPractitioner, loadPractitioners, offers } from './calendar';
import { loadDiary } from './diary';
import { place } from './placement';
import { addDays, clockFor, daysBetween } from './wall-time';
import { hasCalendar } from './working-time';

export const MAX_RANGE_DAYS = 31;
export const DEFAULT_RANGE_DAYS = 7;

export interface AvailabilityQuery {
  location_id: number;
  appointment_type_id: number;
  practitioner_id?: number;
  from?: string;
  to?: string;
  visibility: 'all' | 'online';
  rescheduled_appointment_id?: number;
  limit?: number;
}

export interface Slot {
  starts_at: string;
  ends_at: string;
  practitioner_id: number;
  location_id: number;
  appointment_type_id: number;
  resource_id: number | null;
  places_left: number | null;
}

export async function findAvailability(db: Db, account: Account, q: AvailabilityQuery) {
  const clock = clockFor(account.timezone);
  const from = q.from ?? clock.today();
  const to = q.to ?? addDays(from, DEFAULT_RANGE_DAYS - 1);
  if (to < from) throw invalid('to', 'must be on or after from', 'validation_failed');
  if (daysBetween(from, to) + 1 > MAX_RANGE_DAYS) throw invalid('to', `the range is at most ${MAX_RANGE_DAYS} days (from and to inclusive)`, 'validation_failed');
  const online = q.visibility === 'online';

  const location = await loadLocation(db, account.id, q.location_id);
  const type = await loadAppointmentType(db, account.id, q.appointment_type_id);
  if (!type.active) throw invalid('appointment_type_id', 'is not active', 'invalid_input');
  if (online && !location.online_booking) throw invalid('location_id', 'is not enabled for online booking', 'not_online_bookable');
  if (online && !type.online_booking) throw invalid('appointment_type_id', 'is not enabled for online booking', 'not_online_bookable');

  let candidates = (await loadPractitioners(db, account.id)).filter((p) => offers(p, location.id, type.id));
  if (q.practitioner_id != null) {
    const p = await loadPractitioner(db, account.id, q.practitioner_id);
    if (!offers(p, location.id, type.id)) throw invalid('practitioner_id', 'does not offer this appointment type at this location', 'invalid_input');
    if (online && !p.online_booking) throw invalid('practitioner_id', 'is not enabled for online booking', 'not_online_bookable');
    candidates = [p];
  } else if (online) {
    candidates = candidates.filter((p) => p.online_booking);
  }
  if (!candidates.length) throw invalid('appointment_type_id', 'no practitioner offers this appointment type at this location', 'availability_not_configured');

  if (q.rescheduled_appointment_id != null && !(await findRow(db, appointments, account.id, q.rescheduled_appointment_id))) {
    throw invalid('rescheduled_appointment_id', 'is not an appointment of this account', 'invalid_input');
  }

  const resources = type.requires_resource ? await activeResources(db, account.id, location.id) : [];
  const diary = await loadDiary(db, clock, {
    accountId: account.id,
    locationId: location.id,
    practitionerIds: candidates.map((p) => p.id),
    resourceIds: resources,
    from,
    to,
    excludeAppointmentId: q.rescheduled_appointment_id,
  });
  if (!candidates.some((p) => hasCalendar(diary.rows, p.id, location.id))) {
    throw invalid('location_id', 'no working hours are set for this appointment type at this location', 'availability_not_configured');
  }

  const duration = type.duration_minutes * 60_000;
  const bookable = { id: type.id, maxAttendees: type.max_attendees, requiresResource: type.requires_resource };
  const now = Date.now();
  const found: (Slot & { at: number })[] = [];
  for (const p of candidates) {
    for (const w of diary.workingTime(p.id, location.id, online)) {
      for (let start = w.start; start + duration <= w.end; start += duration) {
        // A slot in the repeated hour's first pass cannot be named by its wall time (that means the
        // later pass), so it is not offered.
        if (start < now || clock.toUtc(clock.toWall(start)) !== start) continue;
        const end = start + duration;
        const placed = place(diary, bookable, { practitionerId: p.id, start, end, windowResourceId: w.resourceId }, resources);
        if (!placed.ok) continue;
        found.push({
          at: start,
          starts_at: clock.toWall(start),
          ends_at: clock.toWall(end),
          practitioner_id: p.id,
          location_id: location.id,
          appointment_type_id: type.id,
          resource_id: placed.resourceId,
          places_left: placed.placesLeft,
        });
      }
    }
  }
  found.sort((a, b) => a.at - b.at || a.practitioner_id - b.practitioner_id);
  const withSlots = new Set(found.map((s) => s.starts_at.slice(0, 10)));
  const data = found.slice(0, q.limit ?? found.length).map(({ at: _at, ...slot }) => slot);
  return {
    data,
    meta: {
      from,
      to,
      timezone: account.timezone,
      total: found.length,
      unavailable_dates: diary.days.filter((d) => !withSlots.has(d)),
    },
  };
}
