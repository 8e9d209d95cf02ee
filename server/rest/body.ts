/** Reads a JSON request body with a size bound; every failure is a clean API error, never a 500. */
import type { IncomingMessage } from 'node:http';
import { ApiError, invalid } from '../errors';

/** Deeper JSON is refused before parsing: no schema of ours nests this far, and recursion does not. */
export const MAX_JSON_DEPTH = 32;
/** More query parameters than any list needs; a bound keeps filters and prepared statements small. */
export const MAX_QUERY_PARAMS = 100;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether the request has a body not yet received in full. Headers alone cannot tell a finished body
 * from a missing one: a request framed with neither Transfer-Encoding nor a Content-Length over 0 has none.
 */
export function bodyUnread(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export async function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw new ApiError('payload_too_large', `Request body exceeds ${maxBytes} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new ApiError('payload_too_large', `Request body exceeds ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  // Invalid UTF-8 is refused rather than silently turned into U+FFFD; a leading BOM is dropped.
  try {
    return utf8.decode(Buffer.concat(chunks));
  } catch {
    throw invalid('body', 'The body is not valid UTF-8');
  }
}

/** Whether JSON text nests arrays and objects deeper than `max` (strings are skipped). */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** A JSON object body; an absent body is `{}` (action endpoints take none). */
export function parseJsonObject(text: string, contentType: string | undefined): Record<string, unknown> {
  if (text.trim() === '') return {};
  if (!contentType || !/^application\/(.+\+)?json\b/i.test(contentType)) {
    throw new ApiError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json');
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw invalid('body', `JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw invalid('body', `malformed JSON: ${(err as Error).message}`, 'validation_failed', 'Malformed JSON body');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid('body', 'must be a JSON object', 'validation_failed', 'The body must be a JSON object');
  const reserved = reservedKeyPath(value, '');
  if (reserved)
    throw invalid(
      reserved,
      'is a reserved name, not an attribute',
      'validation_failed',
      `${reserved} is a reserved name, not an attribute`,
    );
  return value as Record<string, unknown>;
}

/**
 * The path of the first `__proto__` key anywhere in a parsed body. JSON.parse keeps it as an own key,
 * but every copy into a plain object (zod's output among them) drops it or, worse, sets a prototype,
 * so a value sent under that name (in metadata, say) would vanish: refused instead, in one place.
 */
function reservedKeyPath(value: unknown, path: string): string | null {
  if (typeof value !== 'object' || value === null) return null;
  for (const [k, v] of Object.entries(value)) {
    const at = path + k;
    if (k === '__proto__') return at;
    const inner = reservedKeyPath(v, `${at}.`);
    if (inner) return inner;
  }
  return null;
}

/**
 * Query string → object; a repeated parameter becomes an array. Null-prototype, so a parameter named
 * `__proto__` or `constructor` is an ordinary (unknown) key.
 */
export function parseQuery(search: string): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  let n = 0;
  for (const [k, v] of new URLSearchParams(search)) {
    if (++n > MAX_QUERY_PARAMS) throw invalid('query', `at most ${MAX_QUERY_PARAMS} query parameters`);
    // No parameter has this name, and copied into a plain object it would be silently dropped.
    if (k === '__proto__') throw invalid(k, 'is not a known parameter');
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}
