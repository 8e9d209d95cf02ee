/**
 * Staff passwords (issue 36 §1): a member changes their own (current one required, other sessions end);
 * new members and resets get a one-time link (hashed at rest, single use, expiring), emailed through a
 * real SMTP server when SMTP_URL is set, else shown once; NIST-style rules refuse common passwords.
 */
import { and, eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { passwordLinks, sessions, users } from '../../db/schema';
import { LINK_MINUTES } from '../auth/password-links';
import { PASSWORD_MIN } from '../auth/password-rules';
import { hashSecret } from '../auth/keys';
import { startServer, useClinic, type Clinic, type TestServer, newClinic } from './helpers';
import { addMember, portalClient, portalCode, portalData, signedIn } from './support/portal';

let clock = Date.now();
// TRUST_PROXY: each portal client signs in from an address of its own (support/portal.ts), so the wrong
// passwords here never throttle another file's sign-ins.
const t = useClinic({ now: () => clock, env: { TRUST_PROXY: 'true' } });
const NEW_PASSWORD = 'a new password nobody else knows';
const tokenOf = (url: string) => new URL(url).hash.replace('#token=', '');

describe('changing one’s own password', () => {
  test('needs the current password; ends the other sessions, keeps this one; the old password stops working', async () => {
    const { member, portal } = await signedIn(t.server, t.clinic, 'practitioner');
    const other = portalClient(t.server, t.clinic);
    expect((await other.signIn(member.email, member.password)).status).toBe(200);

    const wrong = await portal.mutate('account.changePassword', {
      current_password: 'not it at all',
      new_password: NEW_PASSWORD,
    });
    expect([wrong.status, portalCode(wrong)]).toEqual([422, 'invalid_input']);
    expect(wrong.body.error.data.errors.current_password).toBeDefined();
    const weak = await portal.mutate('account.changePassword', {
      current_password: member.password,
      new_password: 'password1234567890',
    });
    expect([weak.status, portalCode(weak)]).toEqual([422, 'validation_failed']);
    expect(weak.body.error.data.errors.new_password[0]).toMatch(/most common passwords/);
    expect((await other.query('session.me')).status).toBe(200);

    const changed = await portal.mutate('account.changePassword', {
      current_password: member.password,
      new_password: NEW_PASSWORD,
    });
    expect(changed.status).toBe(200);
    expect(portalData(changed)).toEqual({ sessions_ended: 1 });
    expect((await portal.query('session.me')).status).toBe(200);
    expect((await other.query('session.me')).status).toBe(401);
    expect((await portalClient(t.server, t.clinic).signIn(member.email, member.password)).status).toBe(401);
    expect((await portalClient(t.server, t.clinic).signIn(member.email, NEW_PASSWORD)).status).toBe(200);
  });

  test.each([
    ['too short', 'short one', new RegExp(`at least ${PASSWORD_MIN}`)],
    ['a common password', 'iloveyou12345678', /most common/],
    ['a run of keys', 'qwertyuiopasdfgh', /too easy/],
    ['the member’s email', 'EMAIL', /your email/],
  ])('refuses %s', async (_, password, message) => {
    const { member, portal } = await signedIn(t.server, t.clinic, 'receptionist');
    const res = await portal.mutate('account.changePassword', {
      current_password: member.password,
      new_password: password === 'EMAIL' ? member.email : password,
    });
    expect(res.status).toBe(422);
    expect(res.body.error.data.errors.new_password[0]).toMatch(message);
  });
});

describe('set-up and reset links (no SMTP: shown once)', () => {
  test('a new member has no password until they use their set-up link, once; nobody else ever knew it', async () => {
    const { portal: admin } = await signedIn(t.server, t.clinic, 'admin');
    const created = await admin.mutate('team.create', {
      name: 'Nina New',
      email: `nina-${Date.now()}@example.test`,
      role: 'receptionist',
    });
    expect(created.status).toBe(200);
    const { member, link } = portalData(created);
    expect(member.password_set).toBe(false);
    expect(link.emailed_to).toBeNull();
    expect(link.url).toMatch(new RegExp(`^http://${t.clinic.host.replace(/\./g, '\\.')}/developers/password#token=`));
    expect(Date.parse(link.expires_at) - clock).toBe(LINK_MINUTES.setup * 60_000);
    const token = tokenOf(link.url);
    // Only the hash is kept.
    const [row] = await t.server.app.db.db.select().from(passwordLinks).where(eq(passwordLinks.user_id, member.id));
    expect(row.token_hash).toBe(hashSecret(token));
    expect(JSON.stringify(row)).not.toContain(token);
    // No password opens the account yet (not even an empty one).
    expect((await portalClient(t.server, t.clinic).signIn(member.email, 'anything at all really')).status).toBe(401);

    const page = portalClient(t.server, t.clinic);
    expect(portalData(await page.query('password.describe', { token }))).toMatchObject({
      purpose: 'setup',
      name: 'Nina New',
    });
    const weak = await page.mutate('password.set', { token, password: 'password' });
    expect([weak.status, weak.body.error.data.errors.password[0]]).toEqual([422, expect.stringMatching(/at least/)]);
    expect((await page.mutate('password.set', { token, password: NEW_PASSWORD })).status).toBe(200);
    const again = await page.mutate('password.set', { token, password: 'another good passphrase' });
    expect([again.status, portalCode(again)]).toEqual([404, 'not_found']);
    expect((await portalClient(t.server, t.clinic).signIn(member.email, NEW_PASSWORD)).status).toBe(200);
    const [user] = await t.server.app.db.db.select().from(users).where(eq(users.id, member.id));
    expect(user.password_changed_at).not.toBeNull();
  });

  test('a reset link ends the member’s sessions when used, expires after its minutes, and a newer link ends the older', async () => {
    const { portal: admin } = await signedIn(t.server, t.clinic, 'admin');
    const { member, portal: theirs } = await signedIn(t.server, t.clinic, 'practitioner');
    const first = portalData(await admin.mutate('team.sendLink', { user_id: member.id }));
    const second = portalData(await admin.mutate('team.sendLink', { user_id: member.id }));
    const page = portalClient(t.server, t.clinic);
    expect(portalCode(await page.query('password.describe', { token: tokenOf(first.url) }))).toBe('not_found');
    expect(portalData(await page.query('password.describe', { token: tokenOf(second.url) })).purpose).toBe('reset');
    // Sending a link changes nothing yet: the old password and the session still work.
    expect((await theirs.query('session.me')).status).toBe(200);
    expect((await page.mutate('password.set', { token: tokenOf(second.url), password: NEW_PASSWORD })).status).toBe(
      200,
    );
    expect((await theirs.query('session.me')).status).toBe(401);
    expect((await portalClient(t.server, t.clinic).signIn(member.email, member.password)).status).toBe(401);
    const open = await t.server.app.db.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.account_id, t.clinic.account.id), eq(sessions.user_id, member.id)));
    expect(open).toHaveLength(0);

    const late = portalData(await admin.mutate('team.sendLink', { user_id: member.id }));
    clock += LINK_MINUTES.reset * 60_000 + 1;
    try {
      expect(
        portalCode(await page.mutate('password.set', { token: tokenOf(late.url), password: 'yet another passphrase' })),
      ).toBe('not_found');
    } finally {
      clock -= LINK_MINUTES.reset * 60_000 + 1;
    }
  });

  test('the owner can be reset too (a leaked owner password can be revoked), but not by a member without Manage team', async () => {
    const clinic = await newClinic(t.server);
    const owner = await addMember(t.server, clinic, 'owner');
    const { portal: admin } = await signedIn(t.server, clinic, 'admin');
    const { portal: receptionist } = await signedIn(t.server, clinic, 'receptionist');
    const refused = await receptionist.mutate('team.sendLink', { user_id: owner.id });
    expect([refused.status, portalCode(refused)]).toEqual([403, 'permission_denied']);
    const link = portalData(await admin.mutate('team.sendLink', { user_id: owner.id }));
    const page = portalClient(t.server, clinic);
    expect((await page.mutate('password.set', { token: tokenOf(link.url), password: NEW_PASSWORD })).status).toBe(200);
    expect((await portalClient(t.server, clinic).signIn(owner.email, owner.password)).status).toBe(401);
  });
});

describe('links by email (SMTP_URL)', () => {
  let smtp: SMTPServer;
  let mailed: TestServer;
  let clinic: Clinic;
  const inbox: { to: string; subject: string; text: string }[] = [];
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        simpleParser(stream).then((mail) => {
          inbox.push({ to: session.envelope.rcptTo[0].address, subject: mail.subject ?? '', text: mail.text ?? '' });
          done();
        }, done);
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    const port = (smtp.server.address() as AddressInfo).port;
    mailed = await startServer(
      { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Clinic <no-reply@clinic.test>' },
      { now: () => clock },
    );
    clinic = await newClinic(mailed);
  });
  afterAll(async () => {
    await mailed?.close();
    await new Promise<void>((r) => smtp.close(() => r()));
  });

  test('the set-up link goes to the member’s inbox only: the admin sees where it went, never the link', async () => {
    const { portal: admin } = await signedIn(mailed, clinic, 'owner');
    const email = `mailed-${Date.now()}@example.test`;
    const created = portalData(await admin.mutate('team.create', { name: 'Mo Mailed', email, role: 'admin' }));
    expect(created.link).toMatchObject({ url: null, emailed_to: email });
    const mail = inbox.find((m) => m.to === email)!;
    expect(mail.subject).toMatch(/portal account/);
    const url = /(http:\/\/\S+#token=[\w-]+)/.exec(mail.text)![1];
    const page = portalClient(mailed, clinic);
    expect((await page.mutate('password.set', { token: tokenOf(url), password: NEW_PASSWORD })).status).toBe(200);
    expect((await portalClient(mailed, clinic).signIn(email, NEW_PASSWORD)).status).toBe(200);
  });
});
