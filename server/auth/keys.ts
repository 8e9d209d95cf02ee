/**
 * API key format: `cpk_` + 32 base62 characters of randomness (~190 bits) + 6 base62 characters of a
 * CRC32 over the random part, so secret scanners can recognise a key and check it offline (the
 * GitHub token scheme). Only the SHA-256 digest is stored, with a short non-secret start for display.
 * Keys issued earlier as `id|secret` keep working.
 */
import crypto, { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const KEY_PREFIX = 'cpk';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}_[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(n: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

function checksum(random: string): string {
  return base62(crc32(random), CHECKSUM_LENGTH);
}

export function generateKey(): string {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += ALPHABET[randomInt(62)];
  return `${KEY_PREFIX}_${random}${checksum(random)}`;
}

/** Well-formed and checksum-valid: lets us refuse typos and garbage without touching the database. */
export function isWellFormedKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(KEY_PREFIX.length + 1);
  return checksum(body.slice(0, RANDOM_LENGTH)) === body.slice(RANDOM_LENGTH);
}

/**
 * SHA-256 of a key, as stored. Every authenticated request hashes its key (the cache of checked keys is
 * by digest, so no secret is held in memory as a map key): the one-shot crypto.hash (Node >= 20.12)
 * costs a third of a Hash object's create, update and digest.
 */
export const hashSecret: (secret: string) => string =
  typeof crypto.hash === 'function'
    ? (secret) => crypto.hash('sha256', secret, 'hex')
    : (secret) => createHash('sha256').update(secret).digest('hex');

export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The non-secret start shown in key lists: the prefix and four characters. */
export const displayStart = (key: string) => key.slice(0, KEY_PREFIX.length + 5);

/** `id|secret` keys: the legacy issued form. */
export function parseIdPipe(token: string): { id: number; secret: string } | null {
  const m = /^(\d{1,10})\|([A-Za-z0-9]{20,128})$/.exec(token);
  return m ? { id: Number(m[1]), secret: m[2] } : null;
}
