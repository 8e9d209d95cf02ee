/**
 * Secrets the server must read back (webhook signing secrets), encrypted at rest with AES-256-GCM. The
 * key comes from SECRETS_KEY (base64 of 32 bytes) or is generated once and kept in the settings table,
 * like the cursor secret, so every process on the database shares it. A stored value reads
 * `v1.<iv>.<tag>.<ciphertext>` (base64url); tampering fails the tag check.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { DbHandle } from '../../db/client';
import { sharedSetting } from '../../db/settings';

let key: Buffer | null = null;

export async function loadSecretsKey(db: DbHandle, fromEnv?: string): Promise<void> {
  if (fromEnv) {
    key = Buffer.from(fromEnv, 'base64');
    if (key.length !== 32) throw new Error('SECRETS_KEY must be the base64 of 32 bytes');
    return;
  }
  key = Buffer.from(await sharedSetting(db, 'secrets_key', randomBytes(32).toString('base64')), 'base64');
}

function current(): Buffer {
  if (!key) throw new Error('secrets key not loaded (loadSecretsKey)');
  return key;
}

export function seal(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', current(), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export function open(sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !data) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', current(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
