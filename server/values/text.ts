/**
 * The NUL character (U+0000) in client input. PostgreSQL cannot store it in text or jsonb (SQLite
 * can), so a NUL that reached a query was a 500 on one database and stored on the other. Every input
 * surface (REST body, query and path; multipart fields; portal calls; MCP tool arguments) refuses it
 * with a 422 naming the attribute, the same on both databases.
 */
import { invalid } from '../errors';

const isPlain = (v: object) => Array.isArray(v) || [Object.prototype, null].includes(Object.getPrototypeOf(v));

/** The path of the first string or key holding a NUL in a JSON-like value, or null. */
export function nulPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path || 'body' : null;
  if (typeof value !== 'object' || value === null || !isPlain(value)) return null;
  for (const [k, v] of Object.entries(value)) {
    const at = path ? `${path}.${k}` : k;
    if (k.includes('\0')) return at;
    const inner = nulPath(v, at);
    if (inner) return inner;
  }
  return null;
}

/** Throws 422 validation_failed when the value holds a NUL anywhere. */
export function refuseNul(value: unknown): void {
  const at = nulPath(value);
  if (at)
    throw invalid(
      at,
      'must not contain the NUL character (\\u0000)',
      'validation_failed',
      `${at}: must not contain the NUL character (\\u0000)`,
    );
}
