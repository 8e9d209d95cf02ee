import { isSupportedCountry } from 'libphonenumber-js';
import { ApiError } from '../../errors';
import { accountCountry, parsePhone, phoneSearchKey } from '../../values/phone';

export interface NumberIn {
  number: string;
  country_code?: string | null;
  iso2?: string | null;
}

/**
 * Completes a number with its country, E.164 form and search key; an unparseable number is a 422
 * naming its index. `number` stays as sent: it is what the patient file shows.
 */
export function normalizeNumber(n: NumberIn, index: number, account: { region: string }) {
  const iso2 = n.iso2?.toUpperCase();
  const dial = n.country_code?.replace(/^\+/, '');
  const raw = n.number.trim();
  const text = dial && !raw.startsWith('+') && !iso2 ? `+${dial}${raw.replace(/^0/, '')}` : raw;
  // An iso2 the library does not know still counts as sent: only numbers with a leading + parse then.
  const defaultCountry = iso2 === undefined ? accountCountry(account) : isSupportedCountry(iso2) ? iso2 : undefined;
  const parsed = parsePhone(text, defaultCountry);
  if (!parsed) {
    const msg = 'is not a recognisable phone number (send iso2 or country_code for numbers without a leading +)';
    throw new ApiError('validation_failed', `numbers[${index}].number ${msg}`, { [`numbers.${index}.number`]: [msg] });
  }
  return {
    number: raw,
    country_code: dial ?? parsed.countryCallingCode,
    iso2: parsed.country ?? iso2 ?? null,
    intl_number: String(parsed.number),
    search_key: phoneSearchKey(text, parsed),
  };
}
