/**
 * The portal's activity log read as a person reads it: sentences with names (not "API key #4" and
 * raw JSON), filters by kind, member and days in the clinic's zone (not UTC days), keyset paging kept,
 * and the CSV export of the same filtered entries, bounded at EXPORT_LIMIT. session.me names the zone.
 * The Practice section's writes (records and settings) are a kind of their own.
 */
import { describe, expect, test } from 'vitest';
import { auditLog } from '../../db/schema';
import { EXPORT_LIMIT } from '../domain/activity';
import { createMember } from '../domain/team';
import { newClinic, uniqueName, useClinic } from './helpers';
import { PASSWORD, portalClient, portalCode, portalData, signedIn } from './support/portal';

const t = useClinic({ clinic: { timezone: 'America/New_York' } });

interface Entry {
  id: number;
  action: string;
  summary: string;
  created_at: string;
}
/** A signed-in admin with a name of their own (the sentences are about who did what). */
async function admin(name: string) {
  const email = `${uniqueName('admin')}@example.test`;
  const member = await createMember(
    t.server.app.db,
    t.clinic.account,
    { actor_type: 'system', actor_id: null, actor_name: 'test' },
    { name, email, role: 'admin', password: PASSWORD },
  );
  const portal = portalClient(t.server, t.clinic);
  expect((await portal.signIn(email, PASSWORD)).status).toBe(200);
  return { member, portal };
}
const summaries = (res: { body: unknown }) => (portalData(res as never).data as Entry[]).map((e) => e.summary);

describe('the activity log', () => {
  test('entries read as sentences with the names of who and what; filters by kind, member and clinic days; CSV holds the same', async () => {
    const { member: ann, portal } = await admin('Ann Admin');
    const { member: bob, portal: bobPortal } = await admin('Bob Builder');
    expect(portalData(await portal.query('session.me')).account.timezone).toBe('America/New_York');

    const { id } = portalData(
      await portal.mutate('keys.create', { name: 'Sync job', access: 'read_only', expires: 'never' }),
    );
    expect((await portal.mutate('keys.rotate', { id })).status).toBe(200);
    const { id: other } = portalData(
      await bobPortal.mutate('keys.create', { name: '=HYPERLINK("x")', access: 'read_write', expires: 'never' }),
    );
    expect((await bobPortal.mutate('keys.revoke', { id: other })).status).toBe(200);

    // The clinic's seed keys were made by the seeding ("test"), not by either member.
    const keys = summaries(await portal.query('activity.list', { kind: 'api_keys' })).filter(
      (e) => !e.startsWith('Test '),
    );
    expect(keys).toEqual([
      `${bob.name} revoked the API key “=HYPERLINK("x")”`,
      `${bob.name} created the API key “=HYPERLINK("x")” (read and write, never expires)`,
      expect.stringMatching(
        new RegExp(
          `^${ann.name} rotated the API key “Sync job”; the previous secret works until \\d{1,2} \\w{3} \\d{4}, \\d{2}:\\d{2}:\\d{2} America/New_York$`,
        ),
      ),
      `${ann.name} created the API key “Sync job” (read-only, never expires)`,
    ]);
    const signIns = summaries(await portal.query('activity.list', { kind: 'sign_ins' }));
    expect(signIns.slice(0, 2)).toEqual([
      expect.stringMatching(new RegExp(`^${bob.name} signed in from \\S+$`)),
      expect.stringMatching(new RegExp(`^${ann.name} signed in from \\S+$`)),
    ]);

    // Member: only what Ann did.
    const byAnn = summaries(await portal.query('activity.list', { member_id: ann.id }));
    expect(byAnn.length).toBe(3);
    expect(byAnn.every((s) => s.startsWith(ann.name))).toBe(true);

    expect(portalCode(await portal.query('activity.list', { from: '2 March' }))).toBe('validation_failed');

    // The CSV: the filtered entries, newest first, times in UTC and in the clinic's zone; a formula-like name stays text.
    const csv = portalData(await portal.query('activity.export', { kind: 'api_keys', member_id: bob.id }));
    expect(csv.rows).toBe(2);
    expect(csv.truncated).toBe(false);
    const lines = csv.csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,time (UTC),time (America/New_York),who,kind,action,what');
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\d+,\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z,"\\d{1,2} \\w{3} \\d{4}, \\d{2}:\\d{2}:\\d{2}",${bob.name},api_keys,revoked,"${bob.name} revoked the API key “=HYPERLINK\\(""x""\\)”"$`,
      ),
    );
    expect(lines).toHaveLength(3);
  });

  test('weekly hours read as their day, times and kind, not as an id', async () => {
    const { member: ann, portal } = await admin('Hana Hours');
    const site = portalData(await portal.mutate('practice.locations.create', { name: 'Dock Road' }));
    const p = portalData(
      await portal.mutate('practice.practitioners.create', {
        first_name: 'Priya',
        last_name: 'Patel',
        location_ids: [site.id],
      }),
    );
    const hours = { practitioner_id: p.id, location_id: site.id, day: '1' };
    const open = portalData(
      await portal.mutate('practice.hours.create', { ...hours, type: 'open', starts_at: '09:00', ends_at: '17:00' }),
    );
    expect(open.id).toBeGreaterThan(0);
    await portal.mutate('practice.hours.create', { ...hours, type: 'break', starts_at: '12:30', ends_at: '13:00' });
    const mine = summaries(await portal.query('activity.list', { kind: 'practice', member_id: ann.id }));
    expect(mine.slice(0, 2)).toEqual([
      `${ann.name} added the practitioner availability “Monday 12:30–13:00, break”`,
      `${ann.name} added the practitioner availability “Monday 09:00–17:00, working hours”`,
    ]);
  });

  test("practice setup changes read as sentences under their own kind, in the CSV too; another clinic's never show", async () => {
    const { member: ann, portal } = await admin('Ann Admin');
    const site = portalData(await portal.mutate('practice.locations.create', { name: 'Harbour Street' }));
    // An update records only what changed: the name is read from the location as it is now.
    expect((await portal.mutate('practice.locations.update', { id: site.id, city: 'Bristol' })).status).toBe(200);
    expect((await portal.mutate('practice.settings.update', { mark_missed: true })).status).toBe(200);
    const voucher = portalData(
      await portal.mutate('practice.paymentMethods.create', { name: 'Voucher', type: 'other' }),
    );
    expect((await portal.mutate('practice.paymentMethods.delete', { id: voucher.id })).status).toBe(200);
    expect((await t.api.post('/referral_sources', { body: { name: 'Local GP' } })).status).toBe(201);

    const other = await newClinic(t.server);
    const { portal: theirs } = await signedIn(t.server, other, 'owner');
    expect((await theirs.mutate('practice.locations.create', { name: 'Their site' })).status).toBe(200);

    const expected = [
      `${ann.name} deleted the payment method “Voucher”`,
      `${ann.name} added the payment method “Voucher”`,
      `${ann.name} changed the practice settings: mark missed from off to on`,
      `${ann.name} changed the location “Harbour Street”: city`,
      `${ann.name} added the location “Harbour Street”`,
    ];
    expect(summaries(await portal.query('activity.list', { kind: 'practice', member_id: ann.id }))).toEqual(expected);
    const practice = summaries(await portal.query('activity.list', { kind: 'practice' }));
    expect(practice.slice(0, 6)).toEqual([
      'The API key “Test integration” added the referral source “Local GP”',
      ...expected,
    ]);
    expect(practice.join('\n')).not.toContain('Their site');
    expect(summaries(await theirs.query('activity.list', { kind: 'practice' })).join('\n')).not.toContain(
      'Harbour Street',
    );
    // The other kinds leave setup out; no kind shows it with the rest.
    expect(summaries(await portal.query('activity.list', { kind: 'team' })).join('\n')).not.toContain('Harbour Street');
    expect(
      summaries(await portal.query('activity.list', { member_id: ann.id })).filter((e) => e.includes('Harbour Street')),
    ).toHaveLength(2);

    const csv = portalData(await portal.query('activity.export', { kind: 'practice', member_id: ann.id }));
    expect(csv.rows).toBe(5);
    const lines = csv.csv.trimEnd().split('\r\n');
    // After the id, the UTC time and the clinic's time (quoted: it holds a comma) and who.
    expect(lines.slice(1).map((l: string) => l.split(',').slice(4).join(','))).toEqual([
      `${ann.name},practice,deleted,${expected[0]}`,
      `${ann.name},practice,created,${expected[1]}`,
      `${ann.name},practice,updated,${expected[2]}`,
      `${ann.name},practice,updated,${expected[3]}`,
      `${ann.name},practice,created,${expected[4]}`,
    ]);

    // A rename says from what to what; a practitioner is named by first and last name.
    expect((await portal.mutate('practice.locations.update', { id: site.id, name: 'Harbour Road' })).status).toBe(200);
    const doctor = portalData(
      await portal.mutate('practice.practitioners.create', { first_name: 'Rita', last_name: 'Reyes' }),
    );
    expect((await portal.mutate('practice.practitioners.update', { id: doctor.id, title: 'Dr' })).status).toBe(200);
    expect(summaries(await portal.query('activity.list', { kind: 'practice', member_id: ann.id })).slice(0, 3)).toEqual(
      [
        `${ann.name} changed the practitioner “Rita Reyes”: title`,
        `${ann.name} added the practitioner “Rita Reyes”`,
        `${ann.name} renamed the location “Harbour Street” to “Harbour Road”`,
      ],
    );
  });

  test("days are the clinic's: late on 1 March in New York is 2 March in UTC, and is listed under 1 March", async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const entry = (created_at: string, ip: string) => ({
      account_id: t.clinic.account.id,
      actor_type: 'user' as const,
      actor_id: null,
      actor_name: 'Dee Dated',
      action: 'signed_in',
      entity: 'sessions',
      entity_id: 1,
      changes: { ip },
      created_at,
    });
    await t.server.app.db.transaction((tx) =>
      tx.insert(auditLog).values([
        entry('2026-03-01T05:30:00.000Z', 'first-morning'), // 00:30 on 1 March in New York
        entry('2026-03-02T04:45:00.000Z', 'first-late'), // 23:45 on 1 March in New York
        entry('2026-03-02T05:05:00.000Z', 'second-early'), // 00:05 on 2 March in New York
      ]),
    );
    const on = async (q: object) =>
      summaries(await portal.query('activity.list', { kind: 'sign_ins', ...q })).filter((e) =>
        e.startsWith('Dee Dated'),
      );
    expect(await on({ from: '2026-03-01', to: '2026-03-01' })).toEqual([
      'Dee Dated signed in from first-late',
      'Dee Dated signed in from first-morning',
    ]);
    expect(await on({ from: '2026-03-02', to: '2026-03-02' })).toEqual(['Dee Dated signed in from second-early']);
    expect(await on({ to: '2026-02-28' })).toEqual([]);
    expect(await on({ from: '2026-03-01' })).toHaveLength(3);
  });

  test('paging by id still walks the filtered log without gaps or repeats', async () => {
    const { member, portal } = await signedIn(t.server, t.clinic, 'admin');
    for (let i = 0; i < 30; i++)
      await portal.mutate('keys.create', { name: `Paged ${i}`, access: 'read_only', expires: 'never' });
    const first = portalData(await portal.query('activity.list', { member_id: member.id, kind: 'api_keys' }));
    const second = portalData(
      await portal.query('activity.list', { member_id: member.id, kind: 'api_keys', before: first.next_before }),
    );
    const ids = [...first.data, ...second.data].map((e: Entry) => e.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    expect(second.next_before).toBeNull();
  });

  test(`the CSV export stops at ${EXPORT_LIMIT} entries and says so`, async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const at = new Date().toISOString();
    const rows = Array.from({ length: EXPORT_LIMIT + 5 }, (_, i) => ({
      account_id: t.clinic.account.id,
      actor_type: 'user' as const,
      actor_id: null,
      actor_name: 'Bulk',
      action: 'signed_in',
      entity: 'sessions',
      entity_id: i + 1,
      changes: null,
      created_at: at,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await t.server.app.db.transaction((tx) => tx.insert(auditLog).values(rows.slice(i, i + 500)));
    const csv = portalData(await portal.query('activity.export', { kind: 'sign_ins' }));
    expect(csv.rows).toBe(EXPORT_LIMIT);
    expect(csv.truncated).toBe(true);
    expect(csv.csv.trimEnd().split('\r\n')).toHaveLength(EXPORT_LIMIT + 1);
  });
});
