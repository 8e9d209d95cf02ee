/**
 * Text no database stores the same way: the NUL character (U+0000), which PostgreSQL cannot store in
 * text or jsonb (SQLite can), and strings that are not well-formed Unicode (a lone UTF-16 surrogate
 * such as "\udfff", which JSON allows but jsonb refuses once re-serialised). Either was a 500 on one
 * database and stored on the other. Every input surface (REST body, query and path; multipart fields;
 * portal calls; MCP tool arguments) refuses both, in values and in keys, with a 422 naming the attribute.
 */
import { invalid } from '../errors';

const isPlain = (v: object) => Array.isArray(v) || [Object.prototype, null].includes(Object.getPrototypeOf(v));

const NUL = 'must not contain the NUL character (\\u0000)';
const ILL_FORMED = 'must be well-formed Unicode (it holds a lone surrogate such as \\udfff)';

/** Why a string cannot be stored, or null. */
const problemOf = (s: string) => (s.includes('\0') ? NUL : s.isWellFormed() ? null : ILL_FORMED);

/** The path and problem of the first string or key that cannot be stored in a JSON-like value, or null. */
export function badTextAt(value: unknown, path = ''): { at: string; problem: string } | null {
  if (typeof value === 'string') {
    const problem = problemOf(value);
    return problem ? { at: path || 'body', problem } : null;
  }
  if (typeof value !== 'object' || value === null || !isPlain(value)) return null;
  for (const [k, v] of Object.entries(value)) {
    // A key is named by its position: its own text cannot be echoed (it is the bad text).
    const keyProblem = problemOf(k);
    if (keyProblem) return { at: path || 'body', problem: `has a key that ${keyProblem}` };
    const inner = badTextAt(v, path ? `${path}.${k}` : k);
    if (inner) return inner;
  }
  return null;
}

/** Throws 422 validation_failed when the value holds a NUL or a lone surrogate anywhere. */
export function refuseBadText(value: unknown): void {
  const bad = badTextAt(value);
  if (bad) throw invalid(bad.at, bad.problem, 'validation_failed', `${bad.at}: ${bad.problem}`);
}
