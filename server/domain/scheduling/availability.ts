/**
 * GET /availability: free bookable slots of one appointment type at one location over up to 31 days.
 * Slots lie on a grid of the type's duration, anchored at the start of each stretch of working time
 * (after breaks and blockouts are taken out), never start in the past, and are exactly the ranges
 * POST /appointments would accept (same diary, same placement rule).
 *
 * Computing a busy month reads thousands of bookings (a month of 50 practitioners: ~250 ms, all of it on
 * the event loop), so each process keeps a search's slots per practitioner, each part with the versions
 * of the diaries it read (the practitioner's, the resources it may use: bumped by every appointment
 * write that touches them, in any process). A search whose diaries moved recomputes only the parts that
 * read them: a booking costs the next search one practitioner's diary, not the clinic's. Parts are
 * computed one practitioner at a time with a turn of the event loop between them, so a cold month does
 * not hold other requests up for its whole length. A setup write (hours, offers, types, rooms) moves the
 * clinic's setup counter too, and the search is planned again. Calendar rows written outside the API
 * are caught by CACHE_TTL_MS: a search is rebuilt whole after it. Slots that have since started are
 * dropped at answer time.
 */
import type { Db } from '../../../db/client';
import type { Account } from '../../context';
import { invalid } from '../../errors';
import { appointments } from '../../resources/appointments';
import { DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS } from '../../resources/availability';
import { findRow } from '../../resources/queries';
import {
  bookable,
  bookableResources,
  loadAppointmentType,
  loadLocation,
  loadPractitioners,
  locationResources,
  offers,
  practitionerNotFound,
  type Practitioner,
} from './calendar';
import { loadDiary } from './diary';
import { place } from './placement';
import { practitionerDiary, resourceDiary, SETUP_DIARY, versionsOf } from './diary-version';
import { addDays, clockFor, daysBetween, type ZoneClock } from '../../values/wall-time';
import { hasCalendar } from './working-time';

const CACHE_TTL_MS = 60_000;
const CACHE_ENTRIES = 1_000;

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
  if (daysBetween(from, to) + 1 > MAX_RANGE_DAYS)
    throw invalid('to', `the range is at most ${MAX_RANGE_DAYS} days (from and to inclusive)`, 'validation_failed');

  const key = JSON.stringify([
    account.id,
    q.location_id,
    q.appointment_type_id,
    q.practitioner_id,
    from,
    to,
    q.visibility,
    q.rescheduled_appointment_id,
  ]);
  let found = cache.get(key);
  if (found && Date.now() - found.builtAt > CACHE_TTL_MS) found = undefined;
  // Read before the diaries: a write committed in between moves a counter past the version kept.
  let versions = found ? await versionsOf(db, account.id, found.search.diaries) : null;
  if (!found || !versions || versions.get(SETUP_DIARY) !== found.setup) {
    const setup = (await versionsOf(db, account.id, [SETUP_DIARY])).get(SETUP_DIARY)!;
    const search = await planSearch(db, account, q);
    found = { search, setup, builtAt: Date.now(), parts: new Map(), ...EMPTY };
    versions = await versionsOf(db, account.id, search.diaries);
  }
  const stale = found.search.candidates.filter((p) => !isCurrent(found.parts.get(p.id), versions));
  if (stale.length) {
    try {
      await computeParts(db, account, clock, found, stale, versions, q, from, to);
      Object.assign(found, merged(found));
    } catch (err) {
      cache.delete(key);
      throw err;
    }
  }
  cache.delete(key);
  if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, found);

  const now = Date.now();
  const first = firstAtOrAfter(found.starts, now);
  const end = q.limit == null ? found.slots.length : Math.min(found.slots.length, first + q.limit);
  return {
    data: found.slots.slice(first, end),
    meta: {
      from,
      to,
      timezone: account.timezone,
      total: found.slots.length - first,
      unavailable_dates: found.days.filter((d) => !((found.lastStartOfDay.get(d) ?? -1) >= now)),
    },
  };
}

/** One practitioner's free slots in a search, and the diaries (with their versions) they were read from. */
interface Part {
  versions: Map<string, number>;
  slots: TimedSlot[];
  hasCalendar: boolean;
}

type TimedSlot = Slot & { at: number };

interface Computed {
  /** Free slots ordered by time then practitioner, and their start instants (same order). */
  slots: Slot[];
  starts: number[];
  days: string[];
  /** The last slot start of each day that has one: a day is unavailable once it has passed. */
  lastStartOfDay: Map<string, number>;
}

const EMPTY: Computed = { slots: [], starts: [], days: [], lastStartOfDay: new Map() };

interface Cached extends Computed {
  search: Search;
  /** The setup counter the search was planned at. */
  setup: number;
  builtAt: number;
  parts: Map<number, Part>;
}

const cache = new Map<string, Cached>();

const isCurrent = (part: Part | undefined, versions: Map<string, number>) =>
  !!part && [...part.versions].every(([diary, v]) => versions.get(diary) === v);

function firstAtOrAfter(sorted: number[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What a search reads: its location and type, the practitioners who may take it, the resources it may use. */
async function planSearch(db: Db, account: Account, q: AvailabilityQuery) {
  const online = q.visibility === 'online';
  const location = await loadLocation(db, account.id, q.location_id);
  const type = await loadAppointmentType(db, account.id, q.appointment_type_id);
  if (!type.active) throw invalid('appointment_type_id', 'is not active', 'invalid_input');
  if (online && !location.online_booking)
    throw invalid('location_id', 'is not enabled for online booking', 'not_online_bookable');
  if (online && !type.online_booking)
    throw invalid('appointment_type_id', 'is not enabled for online booking', 'not_online_bookable');

  const everyone = await loadPractitioners(db, account.id);
  let candidates = everyone.filter((p) => offers(p, location.id, type.id));
  if (q.practitioner_id != null) {
    const p = everyone.find((x) => x.id === q.practitioner_id);
    if (!p) throw practitionerNotFound();
    if (!offers(p, location.id, type.id))
      throw invalid('practitioner_id', 'does not offer this appointment type at this location', 'invalid_input');
    if (online && !p.online_booking)
      throw invalid('practitioner_id', 'is not enabled for online booking', 'not_online_bookable');
    candidates = [p];
  } else if (online) {
    candidates = candidates.filter((p) => p.online_booking);
  }
  if (!candidates.length)
    throw invalid(
      'appointment_type_id',
      'no practitioner offers this appointment type at this location',
      'availability_not_configured',
    );

  if (
    q.rescheduled_appointment_id != null &&
    !(await findRow(db, appointments, account.id, q.rescheduled_appointment_id))
  ) {
    throw invalid('rescheduled_appointment_id', 'is not an appointment of this account', 'invalid_input');
  }

  const columns = await locationResources(db, account.id, location.id);
  const resources = type.requires_resource ? bookableResources(columns) : [];
  // Every diary a part may read: the candidates' and every resource column of the location (the type's
  // resources are among them, and a practitioner's window may put slots in any).
  const diaries = [
    SETUP_DIARY,
    ...candidates.map((p) => practitionerDiary(p.id)),
    ...columns.map((c) => resourceDiary(c.id)),
  ];
  return { location, type, candidates, resources, diaries };
}

type Search = Awaited<ReturnType<typeof planSearch>>;

/** Recomputes the parts of `stale` practitioners from one read of their diaries, a practitioner at a time. */
async function computeParts(
  db: Db,
  account: Account,
  clock: ZoneClock,
  found: Cached,
  stale: Practitioner[],
  versions: Map<string, number>,
  q: AvailabilityQuery,
  from: string,
  to: string,
): Promise<void> {
  const { location, type, resources } = found.search;
  const online = q.visibility === 'online';
  const diary = await loadDiary(db, clock, {
    accountId: account.id,
    locationId: location.id,
    practitionerIds: stale.map((p) => p.id),
    resourceIds: resources,
    from,
    to,
    excludeAppointmentId: q.rescheduled_appointment_id,
  });
  found.days = diary.days;
  const duration = type.duration_minutes * 60_000;
  const asBooked = bookable(type);
  for (const [n, p] of stale.entries()) {
    if (n > 0) await new Promise((resolve) => setImmediate(resolve));
    const now = Date.now();
    const slots: TimedSlot[] = [];
    const read = new Set([practitionerDiary(p.id), ...resources.map(resourceDiary)]);
    for (const w of diary.workingTime(p.id, location.id, online)) {
      if (w.resourceId != null) read.add(resourceDiary(w.resourceId));
      // Around a change of clocks, a slot in the repeated hour's first pass cannot be named by its
      // wall time (that names the later pass), so it is not offered.
      const steady = clock.offset(w.start - 3_600_000) === clock.offset(w.end);
      for (let start = w.start; start + duration <= w.end; start += duration) {
        if (start < now || (!steady && clock.toUtc(clock.toWall(start)) !== start)) continue;
        // A dated window is loaded whole when it touches the days: only its slots on the days asked are offered.
        const day = clock.toWall(start).slice(0, 10);
        if (day < from || day > to) continue;
        const end = start + duration;
        const placed = place(
          diary,
          asBooked,
          { practitionerId: p.id, start, end, windowResourceId: w.resourceId },
          resources,
        );
        if (!placed.ok) continue;
        slots.push({
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
    found.parts.set(p.id, {
      versions: new Map([...read].map((d) => [d, versions.get(d) ?? 0])),
      slots,
      hasCalendar: hasCalendar(diary.rows, p.id, location.id),
    });
  }
}

/** The parts as one answer, in time then practitioner order. */
function merged(found: Cached): Computed {
  const parts = [...found.parts.values()];
  if (!parts.some((p) => p.hasCalendar)) {
    throw invalid(
      'location_id',
      'no working hours are set for this appointment type at this location',
      'availability_not_configured',
    );
  }
  const all = parts.flatMap((p) => p.slots).sort((a, b) => a.at - b.at || a.practitioner_id - b.practitioner_id);
  const lastStartOfDay = new Map<string, number>();
  for (const s of all) lastStartOfDay.set(s.starts_at.slice(0, 10), s.at);
  return {
    slots: all.map(({ at: _at, ...slot }) => slot),
    starts: all.map((s) => s.at),
    days: found.days,
    lastStartOfDay,
  };
}
