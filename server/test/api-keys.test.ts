import { asc, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { apiKeys, auditLog } from '../../db/schema';
import { forgetCachedKeys } from '../auth/authenticate';
import { displayStart, generateKey, hashSecret, isWellFormedKey } from '../auth/keys';
import { createKey, KeyError, revokeKey, rotateKey } from '../domain/api_keys';
import { client, expectError, issueKey, newClinic, useClinic } from './helpers';

const t = useClinic();
const actor = { actor_type: 'user' as const, actor_id: null, actor_name: 'test' };

const me = (key: string) => client(t.server, t.clinic, key).get('/me');

describe('key format', () => {
  it('is prefix_ + base62 randomness + checksum, and only its SHA-256 is stored', async () => {
    const key = generateKey();
    expect(key).toMatch(/^cpk_[0-9A-Za-z]{38}$/);
    expect(isWellFormedKey(key)).toBe(true);
    expect(isWellFormedKey(key.slice(0, -1) + (key.endsWith('0') ? '1' : '0'))).toBe(false);
    const issued = await issueKey(t.server, t.clinic);
    const [row] = await t.server.app.db.db.select().from(apiKeys).where(eq(apiKeys.id, issued.id));
    expect(row.hash).toBe(hashSecret(issued.secret));
    expect(row.start).toBe(displayStart(issued.secret));
    expect(JSON.stringify(row)).not.toContain(issued.secret);
  });
});

describe('lifecycle', () => {
  it('records last_used_at', async () => {
    const issued = await issueKey(t.server, t.clinic);
    expect((await me(issued.secret)).status).toBe(200);
    // Written off the request path: waited for, not slept for.
    await vi.waitFor(async () => {
      const [row] = await t.server.app.db.db.select().from(apiKeys).where(eq(apiKeys.id, issued.id));
      expect(row.last_used_at).not.toBeNull();
    });
  });

  it('rotation: new secret works, old one keeps working for 24 hours, then stops', async () => {
    const issued = await issueKey(t.server, t.clinic, { access: 'read_only', expires: '90d', name: 'Rotating' });
    const rotated = await rotateKey(t.server.app.db, t.clinic.account, actor, issued.id);
    expect(rotated.id).toBe(issued.id);
    expect(rotated.secret).not.toBe(issued.secret);
    const fresh = await me(rotated.secret);
    expect(fresh.body.data).toMatchObject({ id: issued.id, name: 'Rotating', scopes: ['read'] });
    expect((await me(issued.secret)).status).toBe(200);
    const [row] = await t.server.app.db.db.select().from(apiKeys).where(eq(apiKeys.id, issued.id));
    const grace = Date.parse(row.previous_expires_at!) - Date.now();
    expect(grace).toBeGreaterThan(23.9 * 3600_000);
    expect(grace).toBeLessThanOrEqual(24 * 3600_000);
    expect(row.expires_at).not.toBeNull();
    // Simulate the end of the grace period.
    await t.server.app.db.transaction((tx) =>
      tx
        .update(apiKeys)
        .set({ previous_expires_at: new Date(Date.now() - 1000).toISOString() })
        .where(eq(apiKeys.id, issued.id)),
    );
    // Written directly (standing in for time passing): this process's key cache is told, as the domain does.
    forgetCachedKeys();
    expectError(await me(issued.secret), 401, 'unauthenticated');
    expect((await me(rotated.secret)).status).toBe(200);
  });

  it('revocation is immediate in the revoking process: the next call is refused, with no wait for the key cache', async () => {
    const issued = await issueKey(t.server, t.clinic);
    // Cached now (principal and row): only the revocation's eviction can make the next call a 401.
    expect((await me(issued.secret)).status).toBe(200);
    expect((await me(issued.secret)).status).toBe(200);
    await revokeKey(t.server.app.db, t.clinic.account, actor, issued.id);
    expectError(await me(issued.secret), 401, 'unauthenticated');
  });

  it('revoking a rotating key stops both secrets at once', async () => {
    const issued = await issueKey(t.server, t.clinic);
    const rotated = await rotateKey(t.server.app.db, t.clinic.account, actor, issued.id);
    expect((await me(issued.secret)).status).toBe(200);
    expect((await me(rotated.secret)).status).toBe(200);
    await revokeKey(t.server.app.db, t.clinic.account, actor, issued.id);
    expectError(await me(issued.secret), 401, 'unauthenticated');
    expectError(await me(rotated.secret), 401, 'unauthenticated');
  });

  it('an expired key stops authenticating and cannot be rotated', async () => {
    const issued = await issueKey(t.server, t.clinic, { expires: '90d' });
    await t.server.app.db.transaction((tx) =>
      tx
        .update(apiKeys)
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where(eq(apiKeys.id, issued.id)),
    );
    // Written directly (standing in for time passing): this process's key cache is told, as the domain does.
    forgetCachedKeys();
    expectError(await me(issued.secret), 401, 'unauthenticated');
    await expect(rotateKey(t.server.app.db, t.clinic.account, actor, issued.id)).rejects.toThrow(KeyError);
  });

  it('keys issued in the older id|secret form keep working', async () => {
    const legacy = await createKey(t.server.app.db, t.clinic.account, actor, {
      name: 'Old style',
      access: 'read_write',
      format: 'id_pipe',
    });
    expect(legacy.secret).toMatch(/^\d+\|[0-9a-f]{48}$/);
    expect((await me(legacy.secret)).body.data.name).toBe('Old style');
    const wrong = legacy.secret.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'));
    expectError(await me(wrong), 401, 'unauthenticated');
  });

  it('keys of the legacy /api never authenticate here', async () => {
    const old = await createKey(t.server.app.db, t.clinic.account, actor, {
      name: 'Legacy API',
      access: 'read_write',
      api: 'legacy',
    });
    expectError(await me(old.secret), 401, 'unauthenticated');
  });

  it('an account of the legacy generation cannot create keys for this API', async () => {
    const legacyClinic = await newClinic(t.server).catch(() => null);
    expect(legacyClinic).not.toBeNull();
    const { createAccount } = await import('../domain/accounts');
    const acc = await createAccount(t.server.app.db, {
      subdomain: `old${Date.now()}`,
      region: 'vulcan',
      name: 'Old',
      timezone: 'America/New_York',
      currency: 'USD',
      generation: 'legacy',
    });
    await expect(createKey(t.server.app.db, acc, actor, { name: 'x', access: 'read_write' })).rejects.toThrow(
      /not yet native/,
    );
  });

  it('creation, rotation and revocation are in the activity log', async () => {
    const issued = await issueKey(t.server, t.clinic, { name: 'Audited' });
    await rotateKey(t.server.app.db, t.clinic.account, actor, issued.id);
    await revokeKey(t.server.app.db, t.clinic.account, actor, issued.id);
    const rows = await t.server.app.db.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entity_id, issued.id))
      .orderBy(asc(auditLog.id));
    const actions = rows.filter((r) => r.entity === 'api_keys').map((r) => r.action);
    expect(actions).toEqual(['created', 'rotated', 'revoked']);
    expect(JSON.stringify(rows)).not.toContain(issued.secret);
  });
});
