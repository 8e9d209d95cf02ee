import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { ApiError } from '../../errors';

/** Default country for numbers sent without one, by the account's region. */
export const REGION_COUNTRY: Record<string, CountryCode> = { neptune: 'GB', mercury: 'DE', vulcan: 'US', jupiter: 'SG', apollo: 'AU' };

export interface NumberIn {
  number: string;
  country_code?: string | null;
  iso2?: string | null;
}

/** Completes a number with its country and E.164 form; an unparseable number is a 422 naming its index. */
export function normalizeNumber(n: NumberIn, index: number, region: string) {
  const iso2 = n.iso2?.toUpperCase();
  const dial = n.country_code?.replace(/^\+/, '');
  const raw = n.number.trim();
  const text = dial && !raw.startsWith('+') && !iso2 ? `+${dial}${raw.replace(/^0/, '')}` : raw;
  // An iso2 the library does not know still counts as sent: only numbers with a leading + parse then.
  const defaultCountry = iso2 === undefined ? REGION_COUNTRY[region] : isSupportedCountry(iso2) ? iso2 : undefined;
  const parsed = parsePhoneNumberFromString(text, defaultCountry);
  if (!parsed || !parsed.isPossible()) {
    const msg = 'is not a recognisable phone number (send iso2 or country_code for numbers without a leading +)';
    throw new ApiError('validation_failed', `numbers[${index}].number ${msg}`, { [`numbers.${index}.number`]: [msg] });
  }
  return {
    number: raw,
    country_code: dial ?? parsed.countryCallingCode,
    iso2: parsed.country ?? iso2 ?? null,
    intl_number: String(parsed.number),
  };
}
