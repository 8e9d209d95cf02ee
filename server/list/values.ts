/** Parses filter operands by attribute kind. Each returns the typed value or throws a 422 naming the attribute. */
import { ApiError } from '../errors';
import { MONEY_PATTERN, parseMoney } from '../values/money';
import { isWallTime } from '../values/wall-time';
import type { Field } from '../resources/fields';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?Z$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function isCalendarDay(s: string): boolean {
  if (!DAY.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** Canonical stored form of a UTC timestamp: YYYY-MM-DDTHH:MM:SS.sssZ. */
export function normalizeTimestamp(s: string): string | null {
  if (!TIMESTAMP.test(s)) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function parseOperand(attribute: string, fld: Field, raw: string): string | number | boolean {
  const bad = (expected: string) =>
    new ApiError('validation_failed', `Invalid filter value for ${attribute}: expected ${expected}`, {
      [attribute]: [`expected ${expected}`],
    });
  switch (fld.kind) {
    case 'integer': {
      if (!/^-?\d{1,15}$/.test(raw)) throw bad('an integer');
      return Number(raw);
    }
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') throw bad('true or false');
      return raw === 'true';
    case 'timestamp': {
      const v = normalizeTimestamp(raw);
      if (!v) throw bad('a UTC timestamp such as 2026-01-31T09:00:00Z');
      return v;
    }
    case 'date':
      if (!isCalendarDay(raw)) throw bad('a calendar day YYYY-MM-DD');
      return raw;
    case 'money':
      if (!MONEY_PATTERN.test(raw)) throw bad('an amount such as 12.50');
      return parseMoney(raw);
    case 'walltime':
      if (!isWallTime(raw))
        throw bad('a clinic wall time such as 2026-01-31T09:00:00 (account timezone, no zone suffix)');
      return raw;
    case 'enum':
      if (!fld.values!.includes(raw)) throw bad(`one of ${fld.values!.join(', ')}`);
      return raw;
    default:
      return raw;
  }
}
