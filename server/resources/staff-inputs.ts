/**
 * Input rules of attributes staff write in the portal's Practice pages (the `staff` option of a field):
 * what a person types into a form, so a blank box is "none" rather than an empty string, and names are
 * trimmed. Written once here and referenced by the declarations.
 */
import { isSupportedCountry } from 'libphonenumber-js';
import { z } from 'zod';
import { recordId } from './fields';

/** A required name: trimmed, 1 to 255 characters. */
export const nameInput = (what = 'a name') =>
  z.string().trim().min(1, `Enter ${what}`).max(255, 'Use at most 255 characters');

/** Optional text: trimmed; blank is null (the attribute is cleared). */
export const optionalText = (max = 255) =>
  z
    .string()
    .trim()
    .max(max, `Use at most ${max} characters`)
    .transform((v) => v || null)
    .nullable();

export const optionalEmail = z
  .union([
    z.literal('').transform(() => null),
    z.email('Enter an email address such as reception@example.com').max(255),
  ])
  .nullable();

/**
 * ISO 3166-1 alpha-2, as the declaration says; typed in either case. Two letters that name no country
 * (XX, QQ) are refused too: the code must be one libphonenumber-js knows, the list the clinic's phone
 * numbers are read by (every country and territory with a telephone numbering plan).
 */
export const countryInput = z
  .string()
  .trim()
  .transform((v) => v.toUpperCase() || null)
  .refine((v) => v === null || /^[A-Z]{2}$/.test(v), 'Use the two-letter country code (GB, IE, US …)')
  .refine(
    (v) => v === null || !/^[A-Z]{2}$/.test(v) || isSupportedCountry(v),
    'No country has this code: use GB, IE, US …',
  )
  .nullable();

export const colourInput = z
  .string()
  .trim()
  .transform((v) => v || null)
  .refine((v) => v === null || /^#[0-9a-fA-F]{6}$/.test(v), 'Use a hex colour such as #3366cc')
  .nullable();

/** Where a record comes in its list (lower first). */
export const sortOrderInput = z
  .number('Enter a whole number')
  .int('Use a whole number')
  .min(0, 'Use 0 or more')
  .max(10_000, 'Use at most 10000');

/** Ids of other records, each once (their existence is the domain's check). */
export const idListInput = z
  .array(recordId)
  .max(500)
  .transform((ids) => [...new Set(ids)]);

/** HH:MM on the 24-hour clock; 24:00 only where a day ends. */
export const clockTime = (endOfDay: boolean) =>
  z
    .string()
    .regex(
      endOfDay ? /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/ : /^([01]\d|2[0-3]):[0-5]\d$/,
      'Use the 24-hour time HH:MM, such as 09:00',
    );

/** 0 = Sunday … 6 = Saturday, as weekly availability rows store it. */
export const WEEKDAYS = ['0', '1', '2', '3', '4', '5', '6'] as const;
