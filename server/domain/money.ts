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

