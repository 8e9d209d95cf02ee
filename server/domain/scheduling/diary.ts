/**
 * A diary: the calendar rows and the booked appointments around a location and practitioners over a
 * few days, loaded in two queries, and the checks of one time range against them. The availability
 * search asks these for every candidate slot; a booking asks them once, inside its transaction.
 */
import { and, eq, gt, inArray, isNotNull, isNull, lt, ne, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { appointments, practitionerAvailabilities } from '../../../db/schema';
import {
  overlaps,
  resourceClosures,
  workingTime,
  type CalendarRow,
  type Interval,
  type WorkInterval,
} from './working-time';
import { addDays, type ZoneClock } from '../../values/wall-time';

/** No appointment is longer than this (POST refuses longer ones), which bounds the overlap search. */
export const MAX_APPOINTMENT_MS = 24 * 3_600_000;

export interface Booked {
  id: number;
  practitionerId: number;
  resourceId: number | null;
  typeId: number;
  start: number;
  end: number;
}

export interface DiaryScope {
  accountId: number;
  locationId: number;
  practitionerIds: number[];
  /** Resources whose bookings and closures matter (those a slot may use). */
  resourceIds: number[];
  /** Calendar days, inclusive. */
  from: string;
  to: string;
  /** An appointment whose own time does not count as busy (it is being moved). */
  excludeAppointmentId?: number | null;
}

export class Diary {
  readonly days: string[];
  private readonly byPractitioner = new Map<number, Bookings>();
  private readonly byResource = new Map<number, Bookings>();
  private readonly closures = new Map<number, Interval[]>();

  constructor(
    readonly clock: ZoneClock,
    readonly rows: CalendarRow[],
    booked: Booked[],
    scope: DiaryScope,
  ) {
    this.days = [];
    for (let d = scope.from; d <= scope.to; d = addDays(d, 1)) this.days.push(d);
    for (const b of booked) {
      push(this.byPractitioner, b.practitionerId, b);
      if (b.resourceId != null) push(this.byResource, b.resourceId, b);
    }
    for (const r of scope.resourceIds) this.closures.set(r, resourceClosures(rows, r, this.days, clock));
  }

  workingTime(practitionerId: number, locationId: number, online: boolean): WorkInterval[] {
    return workingTime(this.rows, { practitionerId, locationId, days: this.days, online }, this.clock);
  }

  /**
   * Whether the practitioner is free over [start, end). For a group type, an existing session of that
   * type starting at `start` is joined rather than clashed with, while it has places.
   */
  practitionerState(practitionerId: number, start: number, end: number, type: SessionType): SlotState {
    return stateAgainst(this.byPractitioner.get(practitionerId), start, end, type, practitionerId);
  }

  resourceFree(resourceId: number, start: number, end: number, type: SessionType, practitionerId: number): boolean {
    if (this.closures.get(resourceId)?.some((c) => overlaps(c, start, end))) return false;
    return stateAgainst(this.byResource.get(resourceId), start, end, type, practitionerId).free;
  }
}

export interface SessionType {
  id: number;
  /** Places in a group session; null for one-to-one types. */
  maxAttendees: number | null;
}

export interface SlotState {
  free: boolean;
  /** A group session is already running at this time. */
  inSession: boolean;
  /** Its first booking, which later ones name as their group_master_id. */
  sessionId: number | null;
  /** Places left in a group slot; null for one-to-one types. */
  placesLeft: number | null;
}

/** Bookings sorted by start, with the longest one's length: an overlap search starts that far back. */
interface Bookings {
  items: Booked[];
  longest: number;
}

/** Index of the first booking starting at or after `t` (binary search). */
function firstFrom(items: Booked[], t: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid].start < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function stateAgainst(
  list: Bookings | undefined,
  start: number,
  end: number,
  type: SessionType,
  practitionerId: number,
): SlotState {
  let attendees = 0;
  let sessionId: number | null = null;
  const items = list?.items ?? [];
  for (let i = firstFrom(items, start - (list?.longest ?? 0)); i < items.length; i++) {
    const b = items[i];
    if (b.start >= end) break;
    if (b.end <= start) continue;
    const sameSession =
      type.maxAttendees != null && b.typeId === type.id && b.start === start && b.practitionerId === practitionerId;
    if (!sameSession) return { free: false, inSession: false, sessionId: null, placesLeft: null };
    attendees++;
    sessionId ??= b.id;
  }
  if (type.maxAttendees == null) return { free: true, inSession: false, sessionId: null, placesLeft: null };
  const placesLeft = Math.max(0, type.maxAttendees - attendees);
  return { free: placesLeft > 0, inSession: attendees > 0, sessionId, placesLeft };
}

/** Appends in arrival order: the bookings come sorted by start. */
function push<K>(map: Map<K, Bookings>, key: K, b: Booked) {
  const list = map.get(key);
  if (list) {
    list.items.push(b);
    list.longest = Math.max(list.longest, b.end - b.start);
  } else map.set(key, { items: [b], longest: b.end - b.start });
}

/** Loads the rows and bookings of a scope. Works inside a transaction (no prepared statements). */
export async function loadDiary(db: Db, clock: ZoneClock, scope: DiaryScope): Promise<Diary> {
  const a = practitionerAvailabilities;
  const rangeStart = clock.toUtcLenient(`${scope.from}T00:00:00`);
  const rangeEnd = clock.toUtcLenient(`${addDays(scope.to, 1)}T00:00:00`);
  const whose: SQL[] = [and(isNull(a.practitioner_id), eq(a.location_id, scope.locationId))!];
  if (scope.practitionerIds.length) whose.push(inArray(a.practitioner_id, scope.practitionerIds));
  // Every resource row of the location: whichever resources the slots end up in, their closures are here.
  whose.push(and(eq(a.location_id, scope.locationId), isNotNull(a.resource_id))!);
  const rows = await db
    .select({
      type: a.type,
      starts_at: a.starts_at,
      ends_at: a.ends_at,
      day: a.day,
      online_booking: a.online_booking,
      resource_id: a.resource_id,
      span_all_columns: a.span_all_columns,
      practitioner_id: a.practitioner_id,
      location_id: a.location_id,
    })
    .from(a)
    .where(
      and(
        eq(a.account_id, scope.accountId),
        ne(a.type, 'appt_guide'),
        or(...whose),
        // Weekly rows always; dated rows (wall times, which sort as text) when they touch the days.
        or(isNotNull(a.day), and(lt(a.starts_at, `${addDays(scope.to, 1)}T24`), gt(a.ends_at, scope.from))),
      ),
    );

  // A window may put its slots in a resource: that resource's bookings and closures matter too.
  const resourceIds = [
    ...new Set([
      ...scope.resourceIds,
      ...rows
        .filter(
          (r) =>
            r.resource_id != null && r.practitioner_id != null && scope.practitionerIds.includes(r.practitioner_id),
        )
        .map((r) => r.resource_id!),
    ]),
  ];
  const ap = appointments;
  const who: SQL[] = [];
  if (scope.practitionerIds.length) who.push(inArray(ap.practitioner_id, scope.practitionerIds));
  if (resourceIds.length) who.push(inArray(ap.resource_id, resourceIds));
  const booked = who.length
    ? await db
        .select({
          id: ap.id,
          practitionerId: ap.practitioner_id,
          resourceId: ap.resource_id,
          typeId: ap.appointment_type_id,
          start: ap.starts_utc,
          end: ap.ends_utc,
        })
        .from(ap)
        .where(
          and(
            eq(ap.account_id, scope.accountId),
            isNull(ap.deleted_at),
            ne(ap.status, 'cancelled'),
            or(...who),
            gt(ap.starts_utc, new Date(rangeStart - MAX_APPOINTMENT_MS).toISOString()),
            lt(ap.starts_utc, new Date(rangeEnd).toISOString()),
            gt(ap.ends_utc, new Date(rangeStart).toISOString()),
            scope.excludeAppointmentId ? ne(ap.id, scope.excludeAppointmentId) : undefined,
          ),
        )
        .orderBy(ap.starts_utc, ap.id)
    : [];
  const asBooked = booked.map((b) => ({ ...b, start: Date.parse(b.start), end: Date.parse(b.end) }));
  return new Diary(clock, rows, asBooked, { ...scope, resourceIds });
}
