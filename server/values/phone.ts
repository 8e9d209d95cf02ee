/**
 * Phone numbers as they are searched. A number is found by its search key, however it was spelled:
 * stored numbers keep the key of what the client sent, and a search reads its own text the same way,
 * so "07700 900101", "07700900101" and "+447700900101" meet at +447700900101.
 */
import { parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from 'libphonenumber-js';

/**
 * The account's country, for numbers written or searched without one. Accounts have no country field;
 * the region is required, fixed for the account's life (its data lives there) and was already the
 * default of writes, so the key a number was stored under is the key a search computes.
 */
export const REGION_COUNTRY: Record<string, CountryCode> = {
  neptune: 'GB',
  mercury: 'DE',
  vulcan: 'US',
  jupiter: 'SG',
  apollo: 'AU',
};

export const accountCountry = (account: { region: string }): CountryCode | undefined => REGION_COUNTRY[account.region];

/** The parse of a number when it is one (a possible length for its country), else undefined. */
export function parsePhone(text: string, defaultCountry: CountryCode | undefined): PhoneNumber | undefined {
  const parsed = parsePhoneNumberFromString(text, defaultCountry);
  return parsed?.isPossible() ? parsed : undefined;
}

/**
 * The search key: E.164 when the text parses, else its digits (0-9; migration 0018 computes the same
 * for stored rows), so a number libphonenumber cannot read is still found by the digits typed; null
 * without any digit.
 */
export function phoneSearchKey(text: string, parsed: PhoneNumber | undefined): string | null {
  if (parsed) return String(parsed.number);
  return text.replace(/[^0-9]/g, '') || null;
}

/** The key of a number sent with no country of its own (a search), read in `country`. */
export const searchKeyIn = (text: string, country: CountryCode | undefined) =>
  phoneSearchKey(text, parsePhone(text, country));
