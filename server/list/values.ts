/** Parses filter operands by attribute kind. Each returns the typed value or throws a 422 naming the attribute. */
import { ApiError } from '../errors';
import { MONEY_PATTERN, parseMoney } from '../values/money';
import { isCalendarDay, normalizeTimestamp, CALENDAR_RULE } from '../values/calendar';
import { isWallTime } from '../values/wall-time';
import type { Field } from '../resources/fields';

export { isCalendarDay, normalizeTimestamp };

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
      if (!v) throw bad(`a UTC timestamp such as 2026-01-31T09:00:00Z, ${CALENDAR_RULE}`);
      return v;
    }
    case 'date':
      if (!isCalendarDay(raw)) throw bad(`a calendar day YYYY-MM-DD, ${CALENDAR_RULE}`);
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
