/**
 * WEBHOOK_SECRETS_KEY: the key that seals webhook signing secrets and members' TOTP secrets, from the environment. Set after
 * secrets were sealed with the generated key kept in the database, it takes over: every secret is
 * sealed again with it and the database's copy is deleted. Runs on a database of its own (it changes
 * what every account shares).
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { openDb } from '../../db/client';
import { settings, users, webhookEndpoints } from '../../db/schema';
import { startTotp } from '../auth/second-factor';
import { createMember } from '../domain/team';
import { createAccount } from '../domain/accounts';
import { createEndpoint } from '../domain/webhooks';
import { ConfigError, loadEnv } from '../env';
import { loadSecretsKey, open } from '../auth/secrets';
import { ownDatabaseUrl } from './support/own-database';

const actor = { actor_type: 'system' as const, actor_id: null, actor_name: 'test' };

describe('WEBHOOK_SECRETS_KEY', () => {
  test('set after a generated key was used: secrets are sealed again with it and the stored key is deleted', async () => {
    const db = await openDb(await ownDatabaseUrl(), { migrate: true });
    try {
      await loadSecretsKey(db, {});
      const [generated] = await db.db.select().from(settings).where(eq(settings.key, 'secrets_key'));
      expect(generated.value).toBeTruthy();
      const account = await createAccount(db, {
        subdomain: 'sealed',
        region: 'neptune',
        name: 'Sealed',
        timezone: 'Europe/London',
        currency: 'GBP',
      });
      const { secret } = await createEndpoint(db, account, actor, { url: 'http://127.0.0.1:9/x', events: 'all' }, true);
      const [before] = await db.db.select().from(webhookEndpoints);
      // A member's authenticator-app secret is sealed with the same key.
      const member = await createMember(db, account, actor, {
        name: 'Tess Totp',
        email: 'tess@sealed.test',
        role: 'owner',
        password: 'a long enough passphrase',
      });
      const totp = await startTotp(db, account, member.id);

      const key = randomBytes(32).toString('base64');
      await loadSecretsKey(db, loadEnv({ NODE_ENV: 'test', WEBHOOK_SECRETS_KEY: key }));
      expect(await db.db.select().from(settings).where(eq(settings.key, 'secrets_key'))).toHaveLength(0);
      const [after] = await db.db.select().from(webhookEndpoints);
      expect(after.secret).not.toBe(before.secret);
      expect(open(after.secret)).toBe(secret);
      const [tess] = await db.db.select().from(users).where(eq(users.id, member.id));
      expect(open(tess.totp_secret!)).toBe(totp.secret);
      // A second start with the same key finds nothing left to move.
      await loadSecretsKey(db, { WEBHOOK_SECRETS_KEY: key });
      expect(open((await db.db.select().from(webhookEndpoints))[0].secret)).toBe(secret);
      expect(after.secret).not.toContain(secret.replace(/^whsec_/, ''));
    } finally {
      await db.close();
    }
  });

  test('a key that is not the base64 of 32 bytes stops the server, naming the variable; SECRETS_KEY is still read', () => {
    expect(() => loadEnv({ NODE_ENV: 'test', WEBHOOK_SECRETS_KEY: 'short' })).toThrow(
      /WEBHOOK_SECRETS_KEY: must be the base64 of 32 bytes/,
    );
    expect(() => loadEnv({ NODE_ENV: 'test', WEBHOOK_SECRETS_KEY: randomBytes(16).toString('base64') })).toThrow(
      ConfigError,
    );
    const old = randomBytes(32).toString('base64');
    expect(loadEnv({ NODE_ENV: 'test', SECRETS_KEY: old }).SECRETS_KEY).toBe(old);
  });
});
