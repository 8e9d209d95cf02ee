/**
 * Working time, as instants: what a practitioner's calendar rows open and close on a set of days.
 * Pure functions over rows already loaded, shared by the availability search and the booking check,
 * so a slot offered is exactly a slot that can be booked.
 *
 * The rules (docs/decisions.md, "Working time"):
 * - `open` (weekly) and `custom_availability` (dated) rows of the practitioner at the location open time.
 * - `blockout`, `break` and `closed` rows close it: the practitioner's own rows wherever they are (a
 *   person cannot be in two places), and rows with no practitioner for the whole location.
 * - A closing row with a `resource_id` and without `span_all_columns` closes that resource only; with
 *   `span_all_columns` it blocks the whole lane like any other.
 * - `appt_guide` rows steer bookings on the calendar; they neither open nor close time.
 * - A `resource_id` on an opening row puts the slots of that window in that resource.
 */
import { addDays, weekday, type ZoneClock } from '../../values/wall-time';

export interface CalendarRow {
  type: string | null;
  starts_at: string | null;
  ends_at: string | null;
  day: string | null;
  online_booking: boolean | null;
  resource_id: number | null;
  span_all_columns: boolean | null;
  practitioner_id: number | null;
  location_id: number | null;
}

export interface Interval {
  start: number;
  end: number;
}

/** A stretch of working time; `resourceId` when its window belongs to one resource's column. */
export interface WorkInterval extends Interval {
  resourceId: number | null;
}

const OPENING = new Set(['open', 'custom_availability']);
const CLOSING = new Set(['blockout', 'break', 'closed']);

/** Every occurrence of a row over the days, as instants (weekly rows once per matching weekday). */
export function occurrences(row: CalendarRow, days: string[], clock: ZoneClock): Interval[] {
  if (!row.starts_at || !row.ends_at) return [];
  if (row.day == null) {
    const start = clock.toUtcLenient(row.starts_at);
    const end = clock.toUtcLenient(row.ends_at);
    return end > start ? [{ start, end }] : [];
  }
  const out: Interval[] = [];
  const dow = Number(row.day);
  for (const d of days) {
    if (weekday(d) !== dow) continue;
    const start = clock.toUtcLenient(`${d}T${row.starts_at}:00`);
    // 24:00 closes the day; otherwise an end at or before the start is a malformed row and opens nothing.
    const end =
      row.ends_at === '24:00'
        ? clock.toUtcLenient(`${addDays(d, 1)}T00:00:00`)
        : clock.toUtcLenient(`${d}T${row.ends_at}:00`);
    if (end > start) out.push({ start, end });
  }
  return out;
}

/** `from` minus every interval of `cuts`; both sorted or not, the result is sorted. */
export function subtract<T extends Interval>(from: T[], cuts: Interval[]): T[] {
  const sortedCuts = [...cuts].sort((a, b) => a.start - b.start);
  const out: T[] = [];
  for (const piece of [...from].sort((a, b) => a.start - b.start)) {
    let start = piece.start;
    for (const c of sortedCuts) {
      if (c.end <= start) continue;
      if (c.start >= piece.end) break;
      if (c.start > start) out.push({ ...piece, start, end: c.start });
      start = Math.max(start, c.end);
      if (start >= piece.end) break;
    }
    if (start < piece.end) out.push({ ...piece, start, end: piece.end });
  }
  return out;
}

const blocksLane = (r: CalendarRow) => r.resource_id == null || r.span_all_columns === true;

export interface WorkingTimeQuery {
  practitionerId: number;
  locationId: number;
  days: string[];
  /** Patient view: only windows offered to online booking open time. */
  online: boolean;
}

/** The practitioner's working time at the location over the days. */
export function workingTime(rows: CalendarRow[], q: WorkingTimeQuery, clock: ZoneClock): WorkInterval[] {
  const opened: WorkInterval[] = [];
  const closed: Interval[] = [];
  for (const r of rows) {
    if (r.type && OPENING.has(r.type)) {
      if (r.practitioner_id !== q.practitionerId || r.location_id !== q.locationId) continue;
      if (q.online && r.online_booking !== true) continue;
      for (const o of occurrences(r, q.days, clock)) opened.push({ ...o, resourceId: r.resource_id });
    } else if (r.type && CLOSING.has(r.type) && blocksLane(r)) {
      const mine = r.practitioner_id === q.practitionerId;
      const wholeLocation = r.practitioner_id == null && r.location_id === q.locationId;
      if (mine || wholeLocation) closed.push(...occurrences(r, q.days, clock));
    }
  }
  return subtract(mergeOverlaps(opened), closed);
}

/**
 * Opening windows that overlap or touch (a weekly `open` row and a dated `custom_availability` over the
 * same hours) are one stretch of working time: without this the search offered each slot twice.
 * Windows of different resources stay apart.
 */
function mergeOverlaps(windows: WorkInterval[]): WorkInterval[] {
  const out: WorkInterval[] = [];
  for (const w of [...windows].sort((a, b) => (a.resourceId ?? 0) - (b.resourceId ?? 0) || a.start - b.start)) {
    const last = out[out.length - 1];
    if (last && last.resourceId === w.resourceId && w.start <= last.end) last.end = Math.max(last.end, w.end);
    else out.push({ ...w });
  }
  return out;
}

/** Times a resource is closed by its own rows (a table being serviced), over the days. */
export function resourceClosures(
  rows: CalendarRow[],
  resourceId: number,
  days: string[],
  clock: ZoneClock,
): Interval[] {
  return rows
    .filter((r) => r.type && CLOSING.has(r.type) && r.resource_id === resourceId && !blocksLane(r))
    .flatMap((r) => occurrences(r, days, clock));
}

/** Whether any row at all opens time for the practitioner at the location ("has a calendar"). */
export const hasCalendar = (rows: CalendarRow[], practitionerId: number, locationId: number) =>
  rows.some(
    (r) => r.type && OPENING.has(r.type) && r.practitioner_id === practitionerId && r.location_id === locationId,
  );

export const overlaps = (a: Interval, start: number, end: number) => a.start < end && start < a.end;
