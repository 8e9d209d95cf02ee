/**
 * Clinic wall times (`YYYY-MM-DDTHH:MM:SS` in the account's IANA zone) to and from UTC instants.
 * Offsets come from the tz database through luxon's IANAZone; converting a wall time is the usual
 * two-pass offset fix-up. A zone's offsets are cached per quarter hour (every real DST change falls on
 * one), because the availability search converts thousands of instants per request (measured: luxon's
 * DateTime.fromISO costs ~60 µs a call, a cached offset well under 1 µs).
 */
import { IANAZone } from 'luxon';
import { inCalendar } from './calendar';

export const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;
const QUARTER_HOUR = 15 * 60_000;
const DAY_MS = 86_400_000;

export class ZoneClock {
  private readonly zone: IANAZone;
  private readonly offsets = new Map<number, number>();

  constructor(readonly name: string) {
    this.zone = IANAZone.create(name);
    if (!this.zone.isValid) throw new Error(`Unknown time zone ${name}`);
  }

  /** Offset from UTC in ms at an instant. */
  offset(ms: number): number {
    const bucket = Math.floor(ms / QUARTER_HOUR);
    let o = this.offsets.get(bucket);
    if (o === undefined) {
      if (this.offsets.size > 50_000) this.offsets.clear();
      o = this.zone.offset(bucket * QUARTER_HOUR) * 60_000;
      this.offsets.set(bucket, o);
    }
    return o;
  }

  /** The wall time of an instant. */
  toWall(ms: number): string {
    return new Date(ms + this.offset(ms)).toISOString().slice(0, 19);
  }

  /**
   * The instant of a wall time, or null when it does not exist (skipped when clocks go forward).
   * A repeated wall time (clocks going back) means its later occurrence, as luxon resolves it.
   */
  toUtc(wall: string): number | null {
    const local = wallAsUtc(wall);
    const utc = local - this.offset(local - this.offset(local));
    return this.toWall(utc) === wall ? utc : null;
  }

  /** As toUtc, but a skipped wall time moves forward by the gap (01:30 on a spring-forward night → 02:30). */
  toUtcLenient(wall: string): number {
    return this.toUtc(wall) ?? wallAsUtc(wall) - this.offset(wallAsUtc(wall) - DAY_MS / 2);
  }

  today(): string {
    return this.toWall(Date.now()).slice(0, 10);
  }
}

const clocks = new Map<string, ZoneClock>();
export function clockFor(zone: string): ZoneClock {
  let c = clocks.get(zone);
  if (!c) clocks.set(zone, (c = new ZoneClock(zone)));
  return c;
}

/** The wall time read as if it were UTC: the arithmetic base of the conversions. */
function wallAsUtc(wall: string): number {
  const m = WALL_TIME.exec(wall.length === 16 ? `${wall}:00` : wall);
  if (!m) throw new Error(`Not a wall time: ${wall}`);
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
}

/** Whether a string is a wall time naming a real moment of the calendar (2026-02-30T10:00:00 is not; values/calendar.ts). */
export function isWallTime(s: string): boolean {
  if (!WALL_TIME.test(s)) return false;
  const ms = Date.parse(`${s}Z`);
  return inCalendar(ms) && new Date(ms).toISOString().slice(0, 19) === s;
}

export const addDays = (day: string, n: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
export const weekday = (day: string): number => new Date(`${day}T00:00:00Z`).getUTCDay();
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
