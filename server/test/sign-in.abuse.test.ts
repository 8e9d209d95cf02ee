/**
 * Sign-in abuse found in the security review (issue 36 §5): per-address limits count an IPv6 client by
 * its /64 and an IPv4-mapped address as IPv4; the hash slots are fair per clinic and per email, and a
 * refusal counts against its address; a batch is judged by the decoded procedure list; Deny never
 * sends a member to an address no one in the clinic approved.
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { signInAttempts } from '../../db/schema';
import { HashSlots, PER_CLINIC, PER_EMAIL } from '../auth/hash-slots';
import { IP_FAILURES } from '../auth/sign-in';
import { addressKey } from '../values/address';
import { newClinic, request, useClinic, type Clinic, type TestServer } from './helpers';
import { addMember, portalClient, portalCode, portalData } from './support/portal';

// Twenty-odd scrypt hashes (a wrong password costs one): more than the default timeout on a busy machine.
const SCRYPT_HEAVY = { timeout: 60_000 };

const t = useClinic({ env: { TRUST_PROXY: 'true', RATE_LIMIT_UNAUTH_PER_MINUTE: '2' } });
/** A /64 of its own for each call (random, so a kept database's old attempts are never met). */
const fresh64 = () =>
  `2001:db8:${Array.from({ length: 2 }, () => Math.floor(Math.random() * 0xffff).toString(16)).join(':')}`;

const signInFrom = (server: TestServer, clinic: Clinic, ip: string, email: string, password: string) =>
  request(server, 'POST', '/developers/trpc/session.signIn', {
    host: clinic.host,
    body: { email, password },
    headers: { origin: `http://${clinic.host}`, 'x-forwarded-for': ip },
  });

describe('an address is an IPv4 address or an IPv6 /64', () => {
  test('keys by range: mapped IPv4 is IPv4; every address of a /64 is one key; other /64s are not', () => {
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('2001:DB8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::9')).toBe(addressKey('2001:db8:0001:0002:ffff:0:0:1'));
    expect(addressKey('2001:db8:1:3::9')).not.toBe(addressKey('2001:db8:1:2::9'));
    expect(addressKey('unknown')).toBe('unknown');
  });

  test('the unauthenticated budget (2/min) holds for eight addresses of one /64: 2 answered, then 429', async () => {
    const net = fresh64();
    const statuses: number[] = [];
    for (let i = 1; i <= 8; i++) {
      const res = await request(t.server, 'GET', '/me', {
        host: t.clinic.host,
        headers: { 'x-forwarded-for': `${net}:${i}:${i}:${i}:${i}` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 429, 429, 429, 429, 429, 429]);
    // An IPv4 client written as IPv4-mapped IPv6 shares its IPv4 budget.
    const v4 = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
    const mapped = await Promise.all(
      [v4, `::ffff:${v4}`, v4].map((ip) =>
        request(t.server, 'GET', '/me', { host: t.clinic.host, headers: { 'x-forwarded-for': ip } }),
      ),
    );
    expect(mapped.map((r) => r.status).sort()).toEqual([401, 401, 429]);
  });

  test(
    `sign-in failures of one /64 count together: ${IP_FAILURES} across its addresses, then 429 for all of it`,
    SCRYPT_HEAVY,
    async () => {
      const net = fresh64();
      const member = await addMember(t.server, t.clinic, 'receptionist');
      const emails = Array.from({ length: 6 }, (_, i) => `nobody${i}-${net}@example.test`);
      for (let i = 0; i < IP_FAILURES; i++) {
        const res = await signInFrom(t.server, t.clinic, `${net}::${i + 1}`, emails[i % 6], `guess ${i}`);
        expect(res.status).toBe(401);
      }
      const more = await signInFrom(t.server, t.clinic, `${net}:ffff::1`, member.email, member.password);
      expect(more.status).toBe(429);
      // The session and activity log keep the address as sent; the limit counted the /64.
      const [row] = await t.server.app.db.db
        .select()
        .from(signInAttempts)
        .where(and(eq(signInAttempts.account_id, t.clinic.account.id), eq(signInAttempts.email, emails[0])));
      expect(row.ip).toBe(addressKey(`${net}::1`));
    },
  );
});

describe('hash slots are fair', () => {
  test(`a clinic holds at most ${PER_CLINIC} sign-ins and an email ${PER_EMAIL}; the lines are served in turn`, async () => {
    const slots = new HashSlots(1);
    const order: string[] = [];
    const started = (name: string) => (release: () => void) => {
      order.push(name);
      return release;
    };
    const hold = await slots.take(1, 'first@x');
    const flood = Array.from({ length: PER_CLINIC - 1 }, (_, i) => slots.take(1, `f${i}@x`).then(started(`f${i}`)));
    await expect(slots.take(1, 'late@x')).rejects.toMatchObject({ code: 'rate_limited' });
    const theirs = slots.take(2, 'owner@y').then(started('other clinic'));
    // One email: PER_EMAIL in flight, then refused.
    const mine = [slots.take(3, 'me@z').then(started('me 1')), slots.take(3, 'me@z').then(started('me 2'))];
    await expect(slots.take(3, 'me@z')).rejects.toMatchObject({ code: 'rate_limited' });
    // One hash at a time (capacity 1): the clinics take turns, the flood's line does not go first in full.
    hold();
    for (const next of [flood[0], theirs, mine[0], flood[1], mine[1], ...flood.slice(2)]) (await next)();
    expect(order.slice(0, 5)).toEqual(['f0', 'other clinic', 'me 1', 'f1', 'me 2']);
    expect(order).toHaveLength(PER_CLINIC + 2);
  });

  test(
    'a flood on one clinic from rotating addresses: six correct sign-ins on another clinic all get in',
    SCRYPT_HEAVY,
    async () => {
      const other = await newClinic(t.server);
      const victim = await addMember(t.server, t.clinic, 'receptionist');
      const owner = await addMember(t.server, other, 'owner');
      // The flood goes on, in waves of 30 guesses from new addresses, until the owner is done.
      let done = false;
      const answers: Awaited<ReturnType<typeof signInFrom>>[] = [];
      const flood = (async () => {
        for (let wave = 0; wave < 20 && !done; wave++) {
          const guesses = Array.from({ length: 30 }, (_, i) =>
            signInFrom(t.server, t.clinic, `${fresh64()}::1`, `x${i % 3}${victim.email}`, `g${i}`),
          );
          answers.push(...(await Promise.all(guesses)));
        }
      })();
      const mine: number[] = [];
      for (let i = 0; i < 6; i++)
        mine.push((await signInFrom(t.server, other, `${fresh64()}::1`, owner.email, owner.password)).status);
      done = true;
      await flood;
      expect(mine).toEqual([200, 200, 200, 200, 200, 200]);
      // A slow machine runs more waves: the guessed emails then reach their failure limit too, and those
      // 429s record nothing. The hash slots' refusals are the ones that must stay counted.
      const refused = answers.filter((r) => r.status === 429 && /at once/.test(r.body.error.message));
      expect(refused.length).toBeGreaterThan(0);
      // Each refusal for a busy slot stays a failure of its address (its email blanked): counted, never free.
      const blanked = await t.server.app.db.db
        .select()
        .from(signInAttempts)
        .where(and(eq(signInAttempts.account_id, t.clinic.account.id), eq(signInAttempts.email, '')));
      expect(blanked.length).toBeGreaterThanOrEqual(refused.length);
    },
  );
});

describe('batches are judged by the decoded procedure list', () => {
  test.each(['session%2EsignIn%2Csession%2EsignIn', 'session.signIn%2csession.signIn', 'keys.list,session%2esignIn'])(
    '%s?batch=1 is refused before anything runs',
    async (path) => {
      const member = await addMember(t.server, t.clinic, 'admin');
      const res = await request(t.server, 'POST', `/developers/trpc/${path}?batch=1`, {
        host: t.clinic.host,
        body: { 0: { email: member.email, password: 'wrong one' }, 1: { email: member.email, password: 'wrong two' } },
        headers: { origin: `http://${t.clinic.host}`, 'x-forwarded-for': `${fresh64()}::1` },
      });
      expect(res.status).toBe(422);
      expect(portalCode(res)).toBe('invalid_input');
      const attempts = await t.server.app.db.db
        .select()
        .from(signInAttempts)
        .where(and(eq(signInAttempts.account_id, t.clinic.account.id), eq(signInAttempts.email, member.email)));
      expect(attempts).toHaveLength(0);
    },
  );

  test('a path that is not valid percent-encoding is 422, not a 500', async () => {
    const res = await request(t.server, 'POST', '/developers/trpc/session%E0signIn', {
      host: t.clinic.host,
      body: {},
      headers: { origin: `http://${t.clinic.host}` },
    });
    expect(res.status).toBe(422);
    expect(portalCode(res)).toBe('invalid_input');
  });
});

describe('Deny', () => {
  test('goes back only to an app someone in the clinic approved: an unknown app gets no redirect', async () => {
    const registered = await request(t.server, 'POST', '/v3/oauth2/register', {
      host: t.clinic.host,
      body: {
        client_name: 'Anyone',
        redirect_uris: ['https://attacker.example/cb'],
        token_endpoint_auth_method: 'none',
      },
      headers: { 'x-forwarded-for': `${fresh64()}::1` },
    });
    expect(registered.status).toBe(201);
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: registered.body.client_id,
      redirect_uri: 'https://attacker.example/cb',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
      state: 's',
      resource: `http://${t.clinic.host}/v3/api/mcp`,
    }).toString();
    const member = await addMember(t.server, t.clinic, 'receptionist');
    const portal = portalClient(t.server, t.clinic);
    expect((await portal.signIn(member.email, member.password)).status).toBe(200);
    const denied = await portal.mutate('connectors.deny', { query });
    expect(denied.status).toBe(200);
    expect(portalData(denied)).toEqual({ redirect: null });
    // Once an admin approved the app, Deny goes back to it with access_denied.
    const admin = await addMember(t.server, t.clinic, 'admin');
    const adminPortal = portalClient(t.server, t.clinic);
    await adminPortal.signIn(admin.email, admin.password);
    expect(portalData(await adminPortal.mutate('connectors.approve', { query })).redirect).toMatch(
      /^https:\/\/attacker\.example\/cb\?code=/,
    );
    const back = new URL(portalData(await portal.mutate('connectors.deny', { query })).redirect);
    expect([back.host, back.searchParams.get('error')]).toEqual(['attacker.example', 'access_denied']);
  });
});
