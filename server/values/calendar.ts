/**
 * The one calendar every date and time input lives in: years 0001 to 9998. Year 0000 is no year to
 * PostgreSQL (a 500 once it reached a query), and 9999 leaves no room for a day's or a range's end
 * (9999-12-31 plus a day is year 10000, which no four-digit form writes). Days, UTC timestamps, clinic
 * wall times, cursors and request ids are all checked against it, and anything outside is a 422.
 */
import { z } from 'zod';

// Parsed, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
const FIRST = Date.parse('0001-01-01T00:00:00Z');
const AFTER_LAST = Date.parse('9999-01-01T00:00:00Z');
export const CALENDAR_RULE = 'between 0001-01-01 and 9998-12-31';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?Z$/;

/** Whether an instant (ms) lies in the calendar. */
export const inCalendar = (ms: number) => Number.isFinite(ms) && ms >= FIRST && ms < AFTER_LAST;

/** A real day (2026-02-30 is not) of the calendar. */
export function isCalendarDay(s: string): boolean {
  if (!DAY.test(s)) return false;
  const ms = Date.parse(`${s}T00:00:00Z`);
  return inCalendar(ms) && new Date(ms).toISOString().slice(0, 10) === s;
}

/** Canonical stored form of a UTC timestamp of the calendar (YYYY-MM-DDTHH:MM:SS.sssZ), or null. */
export function normalizeTimestamp(s: string): string | null {
  if (!TIMESTAMP.test(s)) return null;
  const ms = Date.parse(s);
  return inCalendar(ms) ? new Date(ms).toISOString() : null;
}

/** A calendar day as input (write schemas, query parameters, portal filters): format date in JSON Schema. */
export const calendarDay = () => z.iso.date().refine(isCalendarDay, `must be a real date ${CALENDAR_RULE}`);

/** A UTC timestamp as input: format date-time in JSON Schema. */
export const calendarTimestamp = (o: { offset?: boolean } = {}) =>
  z.iso.datetime(o).refine((s) => inCalendar(Date.parse(s)), `must be a time ${CALENDAR_RULE}`);
