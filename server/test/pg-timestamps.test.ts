import { describe, expect, it } from 'vitest';
import { isoFromPg } from '../../db/dialect';

describe('PostgreSQL timestamps read as ISO 8601 UTC', () => {
  it.each([
    ['2026-11-26 14:16:00.123+00', '2026-11-26T14:16:00.123Z'],
    ['2026-11-26 14:16:00.12+00', '2026-11-26T14:16:00.120Z'],
    ['2026-11-26 14:16:00.1+00', '2026-11-26T14:16:00.100Z'],
    ['2026-11-26 14:16:00+00', '2026-11-26T14:16:00.000Z'],
    // Another session time zone: through a Date, to UTC.
    ['2026-11-26 15:16:00.5+01', '2026-11-26T14:16:00.500Z'],
    ['2026-11-26 09:46:00+05:30', '2026-11-26T04:16:00.000Z'],
  ])('%s → %s', (text, iso) => {
    expect(isoFromPg(text)).toBe(iso);
    // The same instant as JavaScript reads it.
    expect(new Date(isoFromPg(text)).getTime()).toBe(
      new Date(text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).getTime(),
    );
  });

  it('a Date from the driver reads the same', () => {
    expect(isoFromPg(new Date('2026-11-26T14:16:00.123Z'))).toBe('2026-11-26T14:16:00.123Z');
  });
});
