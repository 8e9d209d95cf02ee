/**
 * Money is stored as integers in minor units and sent as decimal strings. This module is the only
 * place that converts between the two. Two decimals: every currency the product supports today uses
 * cents/pence; see docs/decisions.md.
 */
export function formatMoney(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Accepted shape of an amount sent by a client: non-negative, at most two decimals, no exponent. */
export const MONEY_PATTERN = /^\d{1,9}(\.\d{1,2})?$/;

/** "12.3" → 1230, exactly (string arithmetic, no binary floats). Assumes MONEY_PATTERN was checked. */
export function parseMoney(s: string): number {
  const [whole, frac = ''] = s.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}
