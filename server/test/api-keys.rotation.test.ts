/**
 * Rotation keeps the promise it shows: the replaced secret works until the end time given when it was
 * replaced. There is one previous secret per key, so a rotation during that grace is refused (409
 * `conflict` in the portal, KeyError in the CLI's domain function) instead of cutting the grace short.
 * A key issued in the legacy `id|secret` form comes back from rotation as a bare `cpk_` key.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys } from '../../db/schema';
import { forgetCachedKeys } from '../auth/authenticate';
import { displayStart, isWellFormedKey } from '../auth/keys';
import { createKey, KeyError, rotateKey } from '../domain/api_keys';
import { client, expectError, issueKey, useClinic } from './helpers';
import { portalCode, portalData, signedIn } from './support/portal';

const t = useClinic();
const actor = { actor_type: 'user' as const, actor_id: null, actor_name: 'test' };
const me = (key: string) => client(t.server, t.clinic, key).get('/me');
const keyRow = async (id: number) => (await t.server.app.db.db.select().from(apiKeys).where(eq(apiKeys.id, id)))[0];

/** The grace ends (as 24 hours passing would end it); this process tells its key cache, as the domain does. */
async function endGrace(id: number) {
  await t.server.app.db.transaction((tx) =>
    tx
      .update(apiKeys)
      .set({ previous_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where(eq(apiKeys.id, id)),
  );
  forgetCachedKeys();
}

describe('a second rotation never moves a shown end time earlier', () => {
  it('CLI (domain function): refused while the previous secret is in its grace; both secrets keep working; allowed again after', async () => {
    const issued = await issueKey(t.server, t.clinic, { name: 'Twice' });
    const first = await rotateKey(t.server.app.db, t.clinic.account, actor, issued.id);
    const before = await keyRow(issued.id);
    const second = rotateKey(t.server.app.db, t.clinic.account, actor, issued.id);
    await expect(second).rejects.toThrow(KeyError);
    await expect(second).rejects.toThrow(
      `is already rotating: its previous secret keeps working until ${first.previous_valid_until}`,
    );
    expect(await keyRow(issued.id)).toEqual(before);
    expect((await me(issued.secret)).status).toBe(200);
    expect((await me(first.secret)).status).toBe(200);

    await endGrace(issued.id);
    const third = await rotateKey(t.server.app.db, t.clinic.account, actor, issued.id);
    expect((await me(third.secret)).status).toBe(200);
    expect((await me(first.secret)).status).toBe(200);
    expectError(await me(issued.secret), 401, 'unauthenticated');
  });

  it('portal: the second rotate is a 409 conflict naming the end time; the list still shows that time', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const { id, secret } = portalData(
      await portal.mutate('keys.create', { name: 'Portal twice', access: 'read_write', expires: 'never' }),
    );
    const rotated = portalData(await portal.mutate('keys.rotate', { id }));
    const again = await portal.mutate('keys.rotate', { id });
    expect(again.status).toBe(409);
    expect(portalCode(again)).toBe('conflict');
    expect(again.body.error.message).toBe(
      `API key ${id} is already rotating: its previous secret keeps working until ${rotated.previous_valid_until}. Rotate it again after that time, or revoke the key to stop every secret now`,
    );
    const listed = portalData(await portal.query('keys.list')).data.find((k: { id: number }) => k.id === id);
    expect(listed).toMatchObject({ status: 'rotating', previous_valid_until: rotated.previous_valid_until });
    expect((await me(secret)).status).toBe(200);
    expect((await me(rotated.secret)).status).toBe(200);
  });

  it('two rotations at the same moment: one wins, the other is refused, and the original secret keeps its grace', async () => {
    const issued = await issueKey(t.server, t.clinic, { name: 'Raced' });
    const results = await Promise.allSettled(
      [0, 1].map(() => rotateKey(t.server.app.db, t.clinic.account, actor, issued.id)),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')?.reason).toBeInstanceOf(KeyError);
    expect((await me(issued.secret)).status).toBe(200);
    expect((await me(won[0].value.secret)).status).toBe(200);
  });
});

describe('rotating a key issued as id|secret', () => {
  it('yields a bare cpk_ key that authenticates as the same integration; the old id|secret keeps its 24 h grace, then stops', async () => {
    const legacy = await createKey(t.server.app.db, t.clinic.account, actor, {
      name: 'Old style',
      access: 'read_only',
      format: 'id_pipe',
    });
    expect((await me(legacy.secret)).status).toBe(200);
    const rotated = await rotateKey(t.server.app.db, t.clinic.account, actor, legacy.id);
    expect(rotated.secret).toMatch(/^cpk_/);
    expect(isWellFormedKey(rotated.secret)).toBe(true);
    expect((await me(rotated.secret)).body.data).toMatchObject({ id: legacy.id, name: 'Old style', scopes: ['read'] });
    expect((await me(legacy.secret)).status).toBe(200);
    const row = await keyRow(legacy.id);
    expect(row).toMatchObject({
      format: 'bare',
      start: displayStart(rotated.secret),
      previous_expires_at: rotated.previous_valid_until,
    });

    await endGrace(legacy.id);
    expectError(await me(legacy.secret), 401, 'unauthenticated');
    expect((await me(rotated.secret)).status).toBe(200);
  });
});

describe('the portal rotation lets the person choose how long the previous secret keeps working', () => {
  it('"now" stops the previous secret at once and leaves nothing in grace, so the next rotation is allowed', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const { id, secret } = portalData(
      await portal.mutate('keys.create', { name: 'Leaked', access: 'read_write', expires: 'never' }),
    );
    const rotated = portalData(await portal.mutate('keys.rotate', { id, grace: 'now' }));
    expectError(await me(secret), 401, 'unauthenticated');
    expect((await me(rotated.secret)).status).toBe(200);
    expect(await keyRow(id)).toMatchObject({ previous_hash: null, previous_expires_at: null });
    expect(portalData(await portal.query('keys.list')).data.find((k: { id: number }) => k.id === id)).toMatchObject({
      status: 'active',
    });
    expect((await portal.mutate('keys.rotate', { id, grace: 'now' })).status).toBe(200);
  });

  it('"1h" keeps the previous secret working for one hour; no grace given means 24 h; anything else is refused', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const hour = portalData(
      await portal.mutate('keys.create', { name: 'Hour', access: 'read_write', expires: 'never' }),
    );
    const before = Date.now();
    const rotated = portalData(await portal.mutate('keys.rotate', { id: hour.id, grace: '1h' }));
    const left = Date.parse(rotated.previous_valid_until) - before;
    expect(left).toBeGreaterThan(59 * 60 * 1000);
    expect(left).toBeLessThanOrEqual(61 * 60 * 1000);
    expect((await me(hour.secret)).status).toBe(200);
    // The grace chosen is still a grace: a second rotation during it is refused as before.
    expect((await portal.mutate('keys.rotate', { id: hour.id, grace: 'now' })).status).toBe(409);

    const day = portalData(await portal.mutate('keys.create', { name: 'Day', access: 'read_write', expires: 'never' }));
    const defaulted = portalData(await portal.mutate('keys.rotate', { id: day.id }));
    expect(Date.parse(defaulted.previous_valid_until) - Date.now()).toBeGreaterThan(23.9 * 60 * 60 * 1000);
    expect((await portal.mutate('keys.rotate', { id: day.id, grace: '7d' })).status).toBe(422);
  });
});
