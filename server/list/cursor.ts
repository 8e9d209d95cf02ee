/**
 * Opaque, signed keyset cursors. A cursor carries the sort values and id of the last row served and
 * a digest of the query it belongs to (filters, sort, page_size), so it cannot be reused with another
 * query nor edited.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors';

export type CursorValues = (string | number | boolean | null)[];

let secret: Buffer | null = null;
export function setCursorSecret(value: string): void {
  secret = Buffer.from(value);
}
function key(): Buffer {
  if (!secret) throw new Error('cursor secret not initialised');
  return secret;
}

const invalidCursor = () =>
  new ApiError(
    'validation_failed',
    'Invalid cursor: start with cursor= (empty) and follow links.next with the same filters, sort and page_size',
    {
      cursor: ['invalid or does not belong to this query'],
    },
  );

export function queryDigest(resource: string, binding: unknown): string {
  return createHash('sha256').update(resource).update(JSON.stringify(binding)).digest('base64url').slice(0, 16);
}

export function encodeCursor(digest: string, values: CursorValues): string {
  const body = Buffer.from(JSON.stringify([digest, values])).toString('base64url');
  const sig = createHmac('sha256', key()).update(body).digest('base64url').slice(0, 22);
  return `${body}.${sig}`;
}

export function decodeCursor(token: string, digest: string): CursorValues {
  const [body, sig, extra] = token.split('.');
  if (!body || !sig || extra !== undefined) throw invalidCursor();
  const expected = createHmac('sha256', key()).update(body).digest('base64url').slice(0, 22);
  if (sig.length !== expected.length || !timingSafeEqual(Buffer.from(sig), Buffer.from(expected)))
    throw invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString());
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed[0] !== digest || !Array.isArray(parsed[1])) throw invalidCursor();
  return parsed[1] as CursorValues;
}
