/** Reads a JSON request body with a size bound; every failure is a clean API error, never a 500. */
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors';

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
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON object body; an absent body is `{}` (action endpoints take none). */
export function parseJsonObject(text: string, contentType: string | undefined): Record<string, unknown> {
  if (text.trim() === '') return {};
  if (!contentType || !/^application\/(.+\+)?json\b/i.test(contentType)) {
    throw new ApiError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ApiError('validation_failed', 'Malformed JSON body', { body: [`malformed JSON: ${(err as Error).message}`] });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError('validation_failed', 'The body must be a JSON object', { body: ['must be a JSON object'] });
  }
  return value as Record<string, unknown>;
}

/** Query string → object; a repeated parameter becomes an array. */
export function parseQuery(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(search)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}
