/**
 * Two-factor sign-in and sessions (issue 36 §2-§4): TOTP with codes computed here, recovery codes used
 * once, the second step reachable only through the password and throttled on its own, the clinic's rule
 * leading members to set a factor up, consent needing a full sign-in, sessions listed and ended by their
 * member or an admin, and the practitioner link one member per record.
 */
import { and, eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { describe, expect, test } from 'vitest';
import { auditLog } from '../../db/schema';
import { FACTOR_FAILURES } from '../auth/second-factor';
import { useClinic } from './helpers';
import { addMember, portalClient, portalCode, portalData, signedIn, type PortalClient } from './support/portal';

let clock = Date.now();
const t = useClinic({ now: () => clock });
const codeAt = (secret: string, at: number) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at });

/** Sets up the authenticator app for a signed-in portal client; its secret and recovery codes. */
async function withTotp(portal: PortalClient) {
  const started = portalData(await portal.mutate('account.totpStart'));
  expect(started.uri).toMatch(/^otpauth:\/\/totp\//);
  expect(started.qr_svg).toMatch(/^<svg/);
  const confirmed = await portal.mutate('account.totpConfirm', { code: codeAt(started.secret, clock) });
  expect(confirmed.status).toBe(200);
  return { secret: started.secret as string, codes: portalData(confirmed).recovery_codes as string[] };
}

describe('TOTP', () => {
  test('after the password the session opens only the second step; the right code signs in, once', async () => {
    const { member, portal } = await signedIn(t.server, t.clinic, 'admin');
    const wrongConfirm = await portal.mutate('account.totpConfirm', { code: '000000' });
    expect(wrongConfirm.status).toBe(409); // not started
    const { secret, codes } = await withTotp(portal);
    expect(codes).toHaveLength(10);

    const next = portalClient(t.server, t.clinic);
    const first = await next.signIn(member.email, member.password);
    expect(portalData(first)).toMatchObject({ next: 'second_factor', factors: { totp: true, passkeys: false } });
    expect((await next.query('session.me')).status).toBe(401);
    expect((await next.query('team.list')).status).toBe(401);
    expect(portalData(await next.query('session.step'))).toMatchObject({
      next: 'second_factor',
      factors: { recovery_codes: true },
    });
    // AI consent needs a member fully signed in.
    expect(portalCode(await next.query('connectors.describe', { query: 'client_id=x' }))).toBe('unauthenticated');

    clock += 60_000;
    const bad = await next.mutate('session.secondFactor', {
      code: '123456' === codeAt(secret, clock) ? '654321' : '123456',
    });
    expect([bad.status, portalCode(bad)]).toEqual([401, 'unauthenticated']);
    const code = codeAt(secret, clock);
    expect((await next.mutate('session.secondFactor', { code })).status).toBe(200);
    expect((await next.query('session.me')).status).toBe(200);
    // The same code cannot sign in a second session.
    const replay = portalClient(t.server, t.clinic);
    await replay.signIn(member.email, member.password);
    expect((await replay.mutate('session.secondFactor', { code })).status).toBe(401);
    const entries = await t.server.app.db.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.account_id, t.clinic.account.id), eq(auditLog.actor_id, member.id)));
    expect(entries.map((e) => e.action)).toEqual(
      expect.arrayContaining(['totp_enabled', 'recovery_codes_created', 'second_factor_passed']),
    );
  });

  test('a recovery code works once; the second step without a password is 401', async () => {
    const { member, portal } = await signedIn(t.server, t.clinic, 'receptionist');
    const { codes } = await withTotp(portal);
    expect(
      portalCode(await portalClient(t.server, t.clinic).mutate('session.secondFactor', { recovery_code: codes[0] })),
    ).toBe('unauthenticated');
    const a = portalClient(t.server, t.clinic);
    await a.signIn(member.email, member.password);
    expect((await a.mutate('session.secondFactor', { recovery_code: codes[0].toUpperCase() })).status).toBe(200);
    const b = portalClient(t.server, t.clinic);
    await b.signIn(member.email, member.password);
    expect((await b.mutate('session.secondFactor', { recovery_code: codes[0] })).status).toBe(401);
    expect((await b.mutate('session.secondFactor', { recovery_code: codes[1] })).status).toBe(200);
  });

  test(`${FACTOR_FAILURES} wrong codes lock the second step (429) across sessions until the window passes`, async () => {
    const { member, portal } = await signedIn(t.server, t.clinic, 'practitioner');
    const { secret } = await withTotp(portal);
    const guesser = portalClient(t.server, t.clinic);
    await guesser.signIn(member.email, member.password);
    const right = codeAt(secret, clock);
    const wrongs = Array.from({ length: FACTOR_FAILURES }, (_, i) => String(100000 + i)).filter((c) => c !== right);
    for (const code of wrongs.slice(0, FACTOR_FAILURES)) await guesser.mutate('session.secondFactor', { code });
    const fresh = portalClient(t.server, t.clinic);
    await fresh.signIn(member.email, member.password);
    const locked = await fresh.mutate('session.secondFactor', { code: right });
    expect([locked.status, portalCode(locked)]).toEqual([429, 'rate_limited']);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    clock += 16 * 60_000;
    const later = portalClient(t.server, t.clinic);
    await later.signIn(member.email, member.password);
    expect((await later.mutate('session.secondFactor', { code: codeAt(secret, clock) })).status).toBe(200);
  });
});

describe("the clinic's rule", () => {
  test('two-factor required for everyone: a member without it is led to set it up before anything else opens', async () => {
    const { portal: owner } = await signedIn(t.server, t.clinic, 'owner');
    const member = await addMember(t.server, t.clinic, 'receptionist');
    try {
      expect((await owner.mutate('team.setPolicy', { two_factor_policy: 'everyone' })).status).toBe(200);
      const portal = portalClient(t.server, t.clinic);
      expect(portalData(await portal.signIn(member.email, member.password)).next).toBe('enrol');
      expect((await portal.query('session.me')).status).toBe(401);
      expect((await portal.mutate('session.secondFactor', { code: '123456' })).status).toBe(401);
      const started = portalData(await portal.mutate('account.totpStart'));
      const done = await portal.mutate('account.totpConfirm', { code: codeAt(started.secret, clock) });
      expect(portalData(done).recovery_codes).toHaveLength(10);
      expect((await portal.query('session.me')).status).toBe(200);
      // The last factor cannot be removed while the rule covers the member.
      expect(portalCode(await portal.mutate('account.totpRemove'))).toBe('conflict');
    } finally {
      await owner.mutate('team.setPolicy', { two_factor_policy: 'optional' });
    }
  });

  test("an admin resets a member's second factor: factors gone, sessions ended, entry in the activity log", async () => {
    const { portal: admin } = await signedIn(t.server, t.clinic, 'admin');
    const { member, portal } = await signedIn(t.server, t.clinic, 'receptionist');
    await withTotp(portal);
    expect((await admin.mutate('team.resetSecondFactor', { user_id: member.id })).status).toBe(200);
    expect((await portal.query('session.me')).status).toBe(401);
    expect(portalData(await portalClient(t.server, t.clinic).signIn(member.email, member.password)).next).toBe(
      'signed_in',
    );
    const members = portalData(await admin.query('team.list')).members;
    expect(members.find((m: { id: number }) => m.id === member.id).two_factor).toBe(false);
  });
});

describe('sessions', () => {
  test('a member sees their sessions and ends one or all others; an admin ends all of a member’s', async () => {
    const { member, portal } = await signedIn(t.server, t.clinic, 'practitioner');
    const phone = portalClient(t.server, t.clinic);
    await phone.signIn(member.email, member.password);
    const laptop = portalClient(t.server, t.clinic);
    await laptop.signIn(member.email, member.password);
    const listed = portalData(await portal.query('account.overview')).sessions;
    expect(listed).toHaveLength(3);
    expect(listed.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const other = listed.find((s: { current: boolean }) => !s.current);
    expect((await portal.mutate('account.endSession', { id: other.id })).status).toBe(200);
    expect(portalData(await portal.query('account.overview')).sessions).toHaveLength(2);
    expect(portalData(await portal.mutate('account.endOtherSessions'))).toEqual({ ended: 1 });
    expect([(await phone.query('session.me')).status, (await laptop.query('session.me')).status]).toEqual([401, 401]);
    expect((await portal.query('session.me')).status).toBe(200);

    const { portal: admin } = await signedIn(t.server, t.clinic, 'admin');
    expect(portalData(await admin.query('team.sessions', { user_id: member.id }))).toHaveLength(1);
    expect(portalData(await admin.mutate('team.endSessions', { user_id: member.id }))).toEqual({ ended: 1 });
    expect((await portal.query('session.me')).status).toBe(401);
  });

  test('a role change ends the member’s sessions; another member’s session cannot be ended as one’s own', async () => {
    const { portal: admin } = await signedIn(t.server, t.clinic, 'admin');
    const { member, portal } = await signedIn(t.server, t.clinic, 'receptionist');
    const { portal: stranger } = await signedIn(t.server, t.clinic, 'receptionist');
    const theirs = portalData(await portal.query('account.overview')).sessions[0];
    expect(portalCode(await stranger.mutate('account.endSession', { id: theirs.id }))).toBe('not_found');
    expect((await admin.mutate('team.setRole', { user_id: member.id, role: 'practitioner' })).status).toBe(200);
    expect((await portal.query('session.me')).status).toBe(401);
  });
});

describe('the practitioner link', () => {
  test('one member per practitioner record; owner/admin change it, in the activity log', async () => {
    const { portal: admin } = await signedIn(t.server, t.clinic, 'admin');
    const p1 = portalData(
      await admin.mutate('practice.practitioners.create', { first_name: 'Ada', last_name: 'Link' }),
    );
    const p2 = portalData(
      await admin.mutate('practice.practitioners.create', { first_name: 'Bea', last_name: 'Link' }),
    );
    const a = await addMember(t.server, t.clinic, 'practitioner');
    const b = await addMember(t.server, t.clinic, 'practitioner');
    expect([p1.id, p2.id]).toEqual([expect.any(Number), expect.any(Number)]);
    expect((await admin.mutate('team.setPractitioner', { user_id: a.id, practitioner_id: p1.id })).status).toBe(200);
    const twice = await admin.mutate('team.setPractitioner', { user_id: b.id, practitioner_id: p1.id });
    expect([twice.status, portalCode(twice)]).toEqual([422, 'invalid_input']);
    expect(twice.body.error.data.errors.practitioner_id[0]).toMatch(/already linked/);
    const moved = await admin.mutate('team.setPractitioner', { user_id: a.id, practitioner_id: p2.id });
    expect(portalData(moved).practitioner_id).toBe(p2.id);
    expect((await admin.mutate('team.setPractitioner', { user_id: b.id, practitioner_id: p1.id })).status).toBe(200);
    const log = portalData(await admin.query('activity.list', { kind: 'team' }));
    expect(JSON.stringify(log)).toMatch(/changed the practitioner record/);
  });
});
