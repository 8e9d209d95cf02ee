/**
 * Secrets the server must read back (webhook signing secrets, members' TOTP secrets), encrypted at rest
 * with AES-256-GCM. The
 * key comes from WEBHOOK_SECRETS_KEY (base64 of 32 bytes; SECRETS_KEY is its older name) or, when
 * unset, is generated once and kept in the settings table, like the cursor secret, so every process on
 * the database shares it. A key kept beside the secrets it protects protects them from little, so
 * production sets it (docs/operations.md). A stored value reads `v1.<iv>.<tag>.<ciphertext>` (base64url);
 * tampering fails the tag check.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { allIn, type DbHandle } from '../../db/client';
import { isPg } from '../../db/dialect';
import { settings, users, webhookEndpoints } from '../../db/schema';
import { sharedSetting } from '../../db/settings';
import type { Env } from '../env';

const SETTING = 'secrets_key';
let key: Buffer | null = null;

/** The key from the environment, if one is set there. */
const environmentKey = (env: Pick<Env, 'WEBHOOK_SECRETS_KEY' | 'SECRETS_KEY'>) =>
  env.WEBHOOK_SECRETS_KEY ?? env.SECRETS_KEY;

export async function loadSecretsKey(
  db: DbHandle,
  env: Pick<Env, 'WEBHOOK_SECRETS_KEY' | 'SECRETS_KEY'> = {},
): Promise<void> {
  const fromEnv = environmentKey(env);
  if (fromEnv) {
    key = Buffer.from(fromEnv, 'base64');
    await adopt(db, key);
    return;
  }
  key = Buffer.from(await sharedSetting(db, SETTING, randomBytes(32).toString('base64')), 'base64');
}

/**
 * A key set in the environment where secrets were sealed with a generated one: every stored secret is
 * sealed again with the new key and the generated key is deleted, in one transaction (on PostgreSQL
 * the setting's row is locked, so processes starting together do it once).
 */
async function adopt(db: DbHandle, next: Buffer): Promise<void> {
  await db.transaction(async (tx) => {
    const [stored] = await allIn<{ value: string }>(
      tx,
      sql`select value from ${settings} where key = ${SETTING}${isPg ? sql` for update` : sql``}`,
    );
    if (!stored) return;
    const previous = Buffer.from(stored.value, 'base64');
    const reseal = (sealed: string) => sealWith(next, openWith(previous, sealed));
    for (const row of await tx.select().from(webhookEndpoints)) {
      await tx
        .update(webhookEndpoints)
        .set({
          secret: reseal(row.secret),
          previous_secret: row.previous_secret === null ? null : reseal(row.previous_secret),
        })
        .where(and(eq(webhookEndpoints.account_id, row.account_id), eq(webhookEndpoints.id, row.id)));
    }
    // Members' authenticator-app secrets are sealed with the same key (server/auth/second-factor.ts).
    for (const row of await tx
      .select({ account_id: users.account_id, id: users.id, totp_secret: users.totp_secret })
      .from(users)
      .where(isNotNull(users.totp_secret))) {
      await tx
        .update(users)
        .set({ totp_secret: reseal(row.totp_secret!) })
        .where(and(eq(users.account_id, row.account_id), eq(users.id, row.id)));
    }
    await tx.delete(settings).where(eq(settings.key, SETTING));
  });
}

function current(): Buffer {
  if (!key) throw new Error('secrets key not loaded (loadSecretsKey)');
  return key;
}

function sealWith(k: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', k, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

function openWith(k: Buffer, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !data) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', k, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

export const seal = (plain: string): string => sealWith(current(), plain);
export const open = (sealed: string): string => openWith(current(), sealed);
