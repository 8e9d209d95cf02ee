/**
 * Passwords: scrypt (memory-hard, from node:crypto) with a random salt; the parameters are stored with
 * the hash so they can be raised later without breaking stored ones. Compared in constant time.
 * scrypt runs on libuv's thread pool, never on the event loop; sign-ins take turns for it per clinic
 * (server/auth/hash-slots.ts).
 */
import { randomBytes, randomInt, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

const derive = (password: string, salt: Buffer, o: ScryptOptions & { N: number; r: number }) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...o, maxmem: 256 * o.N * o.r }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A stored hash no password matches, so an unknown email costs the same time as a wrong password. */
export const DUMMY_HASH = `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_LENGTH).toString('base64url')}`;

/** What a member without a password stores (a set-up link pending): no password matches it. */
export const NO_PASSWORD = '';

/** A hash to check against: the stored one, or DUMMY_HASH when there is none (same time either way). */
export const usableHash = (stored: string | undefined) => (stored?.startsWith('scrypt$') ? stored : DUMMY_HASH);

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A generated password: 20 characters from 57, about 117 bits. */
export function generatePassword(): string {
  return Array.from({ length: 20 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}
