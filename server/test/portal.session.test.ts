/** Portal sign-in, sessions and CSRF: over /developers/trpc as the pages call it. */
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { sessions } from '../../db/schema';
import { EMAIL_IP_FAILURES, IP_FAILURES, WINDOW_MS, WRONG } from '../auth/sign-in';
import { newClinic, request, useClinic } from './helpers';
import { addMember, portalClient, portalCode, portalData, signedIn } from './support/portal';

// Twenty-odd scrypt hashes (a wrong password costs one): more than the default timeout on a busy machine.
const SCRYPT_HEAVY = { timeout: 60_000 };

let clock = Date.now();
// TRUST_PROXY: the address test sends its own X-Forwarded-For, so it never throttles other files' sign-ins.
const t = useClinic({ now: () => clock, env: { TRUST_PROXY: 'true' } });
const MINUTE = 60_000;

describe('sign-in', () => {
  test('a member signs in: an HttpOnly, SameSite=Lax session cookie; the session knows them; only a hash is stored', async () => {
    const member = await addMember(t.server, t.clinic, 'admin');
    const portal = portalClient(t.server, t.clinic);
    const res = await portal.signIn(member.email.toUpperCase(), member.password);
    expect(res.status).toBe(200);
    const cookie = res.headers['set-cookie']![0];
    expect(cookie).toMatch(/^clinic_session=[\w-]{40,}; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
    const me = await portal.query('session.me');
    expect(me.status).toBe(200);
    expect(portalData(me).member).toMatchObject({ email: member.email, role: 'admin' });
    expect(portalData(me).account.name).toBe(t.clinic.account.name);
    const token = portal.cookie.split('=')[1];
    const stored = await t.server.app.db.db.select().from(sessions).where(eq(sessions.user_id, member.id));
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).not.toContain(token);
    expect(stored[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test('under https (behind a trusted proxy) the cookie is __Host- prefixed and Secure', async () => {
    const s = await (await import('./helpers')).startServer({ TRUST_PROXY: 'true' });
    try {
      const clinic = await newClinic(s);
      const member = await addMember(s, clinic, 'admin');
      const res = await request(s, 'POST', '/developers/trpc/session.signIn', {
        host: clinic.host,
        body: { email: member.email, password: member.password },
        headers: { origin: `https://${clinic.host}`, 'x-forwarded-proto': 'https' },
      });
      expect(res.status).toBe(200);
      expect(res.headers['set-cookie']![0]).toMatch(
        /^__Host-clinic_session=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
      );
    } finally {
      await s.close();
    }
  });

  test('a wrong password, an unknown email and a deactivated member all get the same generic 401', async () => {
    const member = await addMember(t.server, t.clinic, 'receptionist');
    const other = await addMember(t.server, t.clinic, 'receptionist');
    const { setActive } = await import('../domain/team');
    await setActive(
      t.server.app.db,
      t.clinic.account,
      { actor_type: 'system', actor_id: null, actor_name: 'test' },
      other.id,
      false,
    );
    const portal = portalClient(t.server, t.clinic);
    for (const [email, password] of [
      [member.email, 'not the password at all'],
      ['nobody@example.test', member.password],
      [other.email, other.password],
    ]) {
      const res = await portal.signIn(email, password);
      expect(res.status).toBe(401);
      expect(portalCode(res)).toBe('unauthenticated');
      expect(res.body.error.message).toBe(WRONG);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  test(`throttled per email and address after ${EMAIL_IP_FAILURES} failures: 429 with Retry-After, even for the right password; open again once the window has passed`, async () => {
    const member = await addMember(t.server, t.clinic, 'receptionist');
    const portal = portalClient(t.server, t.clinic);
    for (let i = 0; i < EMAIL_IP_FAILURES; i++)
      expect((await portal.signIn(member.email, `wrong password ${i}`)).status).toBe(401);
    const refused = await portal.signIn(member.email, member.password);
    expect(refused.status).toBe(429);
    expect(portalCode(refused)).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(WINDOW_MS / 1000 - 60);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(WINDOW_MS / 1000);
    expect(refused.body.error.message).toMatch(/Too many failed sign-ins/);
    clock += WINDOW_MS + 1000;
    expect((await portal.signIn(member.email, member.password)).status).toBe(200);
  });

  test(`throttled per address after ${IP_FAILURES} failures, whatever the email`, SCRYPT_HEAVY, async () => {
    const portal = portalClient(t.server, t.clinic);
    const ip = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    const from = { headers: { 'x-forwarded-for': ip } };
    const member = await addMember(t.server, t.clinic, 'receptionist');
    for (let i = 0; i < IP_FAILURES; i++) {
      const res = await portal.mutate(
        'session.signIn',
        { email: `nobody${i}@example.test`, password: 'wrong password' },
        from,
      );
      expect(res.status).toBe(401);
    }
    const refused = await portal.mutate('session.signIn', { email: member.email, password: member.password }, from);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.error.message).toMatch(/Too many failed sign-ins/);
    // The same member from another address is let in.
    expect(
      (
        await portal.mutate(
          'session.signIn',
          { email: member.email, password: member.password },
          { headers: { 'x-forwarded-for': '198.51.100.7' } },
        )
      ).status,
    ).toBe(200);
  });
});

describe('sessions', () => {
  test('signing out ends the session: the cookie is cleared and the old token no longer works', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const old = portal.cookie;
    const out = await portal.mutate('session.signOut');
    expect(out.status).toBe(200);
    expect(out.headers['set-cookie']![0]).toMatch(/Max-Age=0/);
    const replay = portalClient(t.server, t.clinic);
    replay.cookie = old;
    const me = await replay.query('session.me');
    expect(me.status).toBe(401);
    expect(portalCode(me)).toBe('unauthenticated');
  });

  test('idle expiry: a session unused for SESSION_IDLE_MINUTES ends; one in use stays', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    clock += 119 * MINUTE;
    expect((await portal.query('session.me')).status).toBe(200);
    clock += 119 * MINUTE;
    expect((await portal.query('session.me')).status).toBe(200);
    clock += 121 * MINUTE;
    const res = await portal.query('session.me');
    expect(res.status).toBe(401);
    expect(res.headers['set-cookie']![0]).toMatch(/Max-Age=0/);
  });

  test('absolute expiry: SESSION_MAX_HOURS after sign-in the session ends even if in use', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    for (let h = 0; h < 11; h++) {
      clock += 60 * MINUTE;
      expect((await portal.query('session.me')).status).toBe(200);
    }
    clock += 61 * MINUTE;
    expect((await portal.query('session.me')).status).toBe(401);
  });

  test('deactivating a member signs them out at once', async () => {
    const { member, portal } = await signedIn(t.server, t.clinic, 'receptionist');
    const { portal: admin } = await signedIn(t.server, t.clinic, 'admin');
    expect((await admin.mutate('team.setActive', { user_id: member.id, active: false })).status).toBe(200);
    expect((await portal.query('session.me')).status).toBe(401);
    expect(await t.server.app.db.db.select().from(sessions).where(eq(sessions.user_id, member.id))).toHaveLength(0);
  });

  test("a session of one clinic is nothing on another clinic's host", async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const other = await newClinic(t.server);
    const elsewhere = portalClient(t.server, other);
    elsewhere.cookie = portal.cookie;
    const res = await elsewhere.query('session.me');
    expect(res.status).toBe(401);
  });

  test('an unknown clinic host is 404', async () => {
    const res = await request(t.server, 'GET', '/developers/trpc/session.me', { host: 'nosuch.neptune.localhost' });
    expect(res.status).toBe(404);
    expect(res.body.error.data.code).toBe('not_found');
  });
});

describe('CSRF', () => {
  test('a state-changing call without the portal Origin is 403 csrf_failed and changes nothing', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    for (const origin of [null, 'https://evil.example', `http://other.neptune.localhost`]) {
      const res = await portal.mutate(
        'keys.create',
        { name: 'Forged', access: 'read_write', expires: 'never' },
        { origin },
      );
      expect(res.status).toBe(403);
      expect(portalCode(res)).toBe('csrf_failed');
    }
    const keys = portalData(await portal.query('keys.list')).data;
    expect(keys.map((k: { name: string }) => k.name)).not.toContain('Forged');
    const signIn = await portal.mutate(
      'session.signIn',
      { email: 'a@b.test', password: 'x' },
      { origin: 'https://evil.example' },
    );
    expect(portalCode(signIn)).toBe('csrf_failed');
  });

  test('reads need no Origin; malformed calls get the API error shape, never a 500', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    expect((await portal.query('keys.list', undefined, { origin: null })).status).toBe(200);
    const bad = await request(t.server, 'POST', '/developers/trpc/keys.create', {
      host: t.clinic.host,
      raw: '{not json',
      headers: { origin: `http://${t.clinic.host}`, cookie: portal.cookie },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.data.code).toBe('validation_failed');
    const unknown = await portal.query('nope.nothing');
    expect(unknown.status).toBe(404);
    const wrongMethod = await portal.query('keys.create');
    expect(wrongMethod.status).toBe(405);
    const invalid = await portal.mutate('keys.create', { name: '', access: 'root', expires: 'never', extra: 1 });
    expect(invalid.status).toBe(422);
    expect(portalCode(invalid)).toBe('validation_failed');
    expect(Object.keys(invalid.body.error.data.errors)).toEqual(expect.arrayContaining(['name', 'access', 'extra']));
  });

  test('every odd body gets an answer in the API error shape: oversized, prototype-named keys, bad query input', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const big = await portal.mutate('keys.create', {
      name: 'x'.repeat(2_000_000),
      access: 'read_write',
      expires: 'never',
    });
    expect(big.status).toBe(413);
    expect(portalCode(big)).toBe('payload_too_large');
    const proto = await request(t.server, 'POST', '/developers/trpc/keys.create', {
      host: t.clinic.host,
      raw: '{"name":"P","access":"read_write","expires":"never","__proto__":{"admin":true}}',
      headers: { origin: `http://${t.clinic.host}`, cookie: portal.cookie },
    });
    expect(proto.status).toBe(422);
    expect(portalCode(proto)).toBe('validation_failed');
    const badQuery = await request(t.server, 'GET', '/developers/trpc/activity.list?input=%7Bnot', {
      host: t.clinic.host,
      headers: { cookie: portal.cookie },
    });
    expect(badQuery.status).toBe(422);
    const keys = portalData(await portal.query('keys.list')).data.map((k: { name: string }) => k.name);
    expect(keys).not.toContain('P');
  });
});
