/**
 * The clinic profile (practice.profile.*, `clinic account update`): name, time zone, currency and
 * language read with settings.read and changed with settings.manage, each change one activity sentence,
 * GET /me following. What the page promises before saving: appointments keep their clinic times and
 * move in UTC, each announced; a zone that skips an appointment's time is refused with nothing changed;
 * the currency is fixed once money is on record; new patients take the language. Bad input changes
 * nothing. And "Set up your clinic", ticked from the data.
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, test, vi } from 'vitest';
import { accounts, apiKeys, auditLog, diaryVersions } from '../../db/schema';
import { billingFixture } from './billing-fixture';
import { client, eventTypes, newClinic, useClinic, type Clinic } from './helpers';
import { calendarFixture, D, DST } from './scheduling-fixture';
import { clinic as cli } from './support/cli';
import { portalCode, portalData, signedIn, type PortalClient } from './support/portal';

const t = useClinic();

type Res = Awaited<ReturnType<PortalClient['mutate']>>;
async function ok(res: Promise<Res>) {
  const r = await res;
  expect(r.status, r.text).toBe(200);
  return portalData(r);
}
const profileRows = (clinic: Clinic) =>
  t.server.app.db.db
    .select({ action: auditLog.action, actor_name: auditLog.actor_name, changes: auditLog.changes })
    .from(auditLog)
    .where(and(eq(auditLog.account_id, clinic.account.id), eq(auditLog.entity, 'clinic_profile')))
    .orderBy(auditLog.id);
const stored = async (clinic: Clinic) =>
  (await t.server.app.db.db.select().from(accounts).where(eq(accounts.id, clinic.account.id)))[0];
const summaries = async (portal: PortalClient) =>
  ((await ok(portal.query('activity.list', { kind: 'practice' }))).data as { summary: string }[]).map((e) => e.summary);

async function book(clinic: Clinic, starts_at: string) {
  const cal = await calendarFixture(t.server, clinic);
  const api = client(t.server, clinic);
  const patient = (await api.post('/patients', { body: { first_name: 'Ada', last_name: 'Zone' } })).body.data.id;
  const res = await api.post('/appointments', {
    body: {
      patient_id: patient,
      practitioner_id: cal.p1,
      location_id: cal.siteA,
      appointment_type_id: cal.followUp,
      starts_at,
      allow_clash: true,
    },
  });
  expect(res.status, res.text).toBe(201);
  return {
    api,
    cal,
    appointment: res.body.data as { id: number; starts_at: string; starts_at_utc: string; ends_at_utc: string },
  };
}

test('read with settings.read, saved with settings.manage; one activity sentence per change; GET /me and new patients follow', async () => {
  const clinic = await newClinic(t.server);
  const api = client(t.server, clinic);
  const before = await api.post('/patients', { body: { first_name: 'Old', last_name: 'Patient' } });
  const { portal: owner } = await signedIn(t.server, clinic, 'owner');
  const read = await ok(owner.query('practice.profile.get'));
  expect(read.data).toMatchObject({
    name: 'Test Clinic',
    timezone: 'Europe/London',
    currency: 'GBP',
    locale: 'en',
    country: 'GB',
    region: 'neptune',
  });
  expect(read.consequences).toEqual({ appointments: 0, currency_locked: false, invoices: 0, payments: 0 });
  expect(read.choices.timezones).toContain('Asia/Tokyo');
  expect(read.choices.currencies).toContain('EUR');

  const saved = await ok(owner.mutate('practice.profile.update', { name: '  Harbour Physio ', locale: 'de' }));
  expect(saved.data).toEqual({ name: 'Harbour Physio', timezone: 'Europe/London', currency: 'GBP', locale: 'de' });
  expect(await profileRows(clinic)).toEqual([
    {
      action: 'updated',
      actor_name: expect.any(String),
      changes: { name: { from: 'Test Clinic', to: 'Harbour Physio' }, locale: { from: 'en', to: 'de' } },
    },
  ]);
  expect(await summaries(owner)).toContainEqual(
    expect.stringMatching(
      /changed the clinic profile: name from Test Clinic to Harbour Physio; language from en to de$/,
    ),
  );
  // Saving what is already there writes nothing.
  await ok(owner.mutate('practice.profile.update', { name: 'Harbour Physio' }));
  expect(await profileRows(clinic)).toHaveLength(1);

  // The host → clinic cache holds an account up to 5 s.
  await vi.waitFor(async () => expect((await api.get('/me')).body.data.account.name).toBe('Harbour Physio'), {
    timeout: 6500,
    interval: 250,
  });
  const created = await api.post('/patients', { body: { first_name: 'New', last_name: 'Patient' } });
  expect(created.body.data.locale).toBe('de');
  expect((await api.get(`/patients/${before.body.data.id}`)).body.data.locale).toBe('en');

  const { portal: practitioner } = await signedIn(t.server, clinic, 'practitioner');
  const refused = await practitioner.query('practice.profile.get');
  expect(refused.status).toBe(403);
  expect(portalCode(refused)).toBe('permission_denied');
  const { portal: admin } = await signedIn(t.server, clinic, 'admin');
  await ok(
    admin.mutate('team.updateRole', { key: 'receptionist', permissions: ['settings.read'], record_scope: 'all' }),
  );
  const { portal: desk } = await signedIn(t.server, clinic, 'receptionist');
  expect((await ok(desk.query('practice.profile.get'))).data.name).toBe('Harbour Physio');
  const write = await desk.mutate('practice.profile.update', { name: 'Desk Clinic' });
  expect(write.status).toBe(403);
  expect((await stored(clinic)).name).toBe('Harbour Physio');
});

test.each([
  [{ timezone: 'Mars/Olympus_Mons' }, 'timezone', /IANA time zone/],
  [{ currency: 'XYZ' }, 'currency', /ISO 4217/],
  [{ currency: 'gbp' }, 'currency', /ISO 4217/],
  [{ locale: 'zz' }, 'locale', /one of en/],
  [{ name: '   ' }, 'name', /clinic’s name/],
  [{ name: 'x'.repeat(256) }, 'name', /255/],
  [{ subdomain: 'elsewhere' }, null, /subdomain/],
])('%j is refused, naming the field, and changes nothing', async (input, field, message) => {
  const clinic = await newClinic(t.server);
  const { portal: owner } = await signedIn(t.server, clinic, 'owner');
  const res = await owner.mutate('practice.profile.update', input);
  expect(res.status, res.text).toBe(422);
  const error = res.body.error.data;
  if (field) expect(error.errors[field][0]).toMatch(message);
  else expect(res.text).toMatch(message);
  expect(await stored(clinic)).toMatchObject({ name: 'Test Clinic', timezone: 'Europe/London', currency: 'GBP' });
  expect(await profileRows(clinic)).toEqual([]);
});

test('a time zone change: appointments keep their clinic times, their instants move, each is announced; the diaries’ cached slots go', async () => {
  const clinic = await newClinic(t.server);
  const { api, appointment } = await book(clinic, `${D(1)}T10:00:00`);
  expect(appointment.starts_at_utc).toMatch(new RegExp(`^${D(1)}T10:00:00`));
  const setupBefore = await setupCounter(clinic);
  const { portal: owner } = await signedIn(t.server, clinic, 'owner');
  expect((await ok(owner.query('practice.profile.get'))).consequences.appointments).toBe(1);
  const updatesBefore = (await eventTypes(t.server, clinic, 'appointments', appointment.id)).length;

  await ok(owner.mutate('practice.profile.update', { timezone: 'Asia/Tokyo' }));
  const after = (await api.get(`/appointments/${appointment.id}`)).body.data;
  expect(after.starts_at).toBe(`${D(1)}T10:00:00`);
  expect(Date.parse(after.starts_at_utc)).toBe(Date.parse(`${D(1)}T01:00:00Z`));
  expect(Date.parse(after.ends_at_utc) - Date.parse(after.starts_at_utc)).toBe(
    Date.parse(appointment.ends_at_utc) - Date.parse(appointment.starts_at_utc),
  );
  const types = await eventTypes(t.server, clinic, 'appointments', appointment.id);
  expect(types.slice(updatesBefore)).toEqual(['appointments.updated']);
  expect(await setupCounter(clinic)).toBeGreaterThan(setupBefore);
  await vi.waitFor(async () => expect((await api.get('/me')).body.data.account.timezone).toBe('Asia/Tokyo'), {
    timeout: 6500,
    interval: 250,
  });
  expect(await summaries(owner)).toContainEqual(
    expect.stringMatching(/changed the clinic profile: time zone from Europe\/London to Asia\/Tokyo$/),
  );
});

test('a zone that skips an appointment’s clinic time is refused with the appointment named; nothing moves', async () => {
  const clinic = await newClinic(t.server, { timezone: 'Asia/Tokyo' });
  // 01:30 on the morning London's clocks go from 01:00 to 02:00 does not exist there.
  const { api, appointment } = await book(clinic, `${DST.londonSpring}T01:30:00`);
  const { portal: owner } = await signedIn(t.server, clinic, 'owner');
  const events = (await eventTypes(t.server, clinic, 'appointments', appointment.id)).length;
  const res = await owner.mutate('practice.profile.update', { timezone: 'Europe/London', name: 'Moved' });
  expect(res.status, res.text).toBe(422);
  expect(res.body.error.data.errors.timezone[0]).toContain(`#${appointment.id} at ${DST.londonSpring}T01:30:00`);
  expect(await stored(clinic)).toMatchObject({ timezone: 'Asia/Tokyo', name: 'Test Clinic' });
  expect((await api.get(`/appointments/${appointment.id}`)).body.data.starts_at_utc).toBe(appointment.starts_at_utc);
  expect(await eventTypes(t.server, clinic, 'appointments', appointment.id)).toHaveLength(events);
  expect(await profileRows(clinic)).toEqual([]);
});

test('the currency changes while no money is on record (prices keep their amounts), then is fixed', async () => {
  const clinic = await newClinic(t.server);
  const bill = await billingFixture(t.server, clinic);
  const api = client(t.server, clinic);
  const price = async () => (await api.get(`/billable_items/${bill.consultation}`)).body.data.price;
  const before = await price();
  const { portal: owner } = await signedIn(t.server, clinic, 'owner');
  await ok(owner.mutate('practice.profile.update', { currency: 'EUR' }));
  expect(await price()).toBe(before);
  expect((await stored(clinic)).currency).toBe('EUR');

  const patient = await bill.patient();
  const invoice = await api.post('/invoices', {
    body: { patient_id: patient, line_items: [{ billable_item_id: bill.consultation, quantity: 1 }] },
  });
  expect(invoice.status, invoice.text).toBe(201);
  const read = await ok(owner.query('practice.profile.get'));
  expect(read.consequences).toMatchObject({ currency_locked: true, invoices: 1 });
  const res = await owner.mutate('practice.profile.update', { currency: 'USD' });
  expect(res.status).toBe(422);
  expect(res.body.error.data.errors.currency[0]).toMatch(/stays EUR/);
  expect((await stored(clinic)).currency).toBe('EUR');
});

async function setupCounter(clinic: Clinic) {
  const [row] = await t.server.app.db.db
    .select({ version: diaryVersions.version })
    .from(diaryVersions)
    .where(and(eq(diaryVersions.account_id, clinic.account.id), eq(diaryVersions.diary, 'setup')));
  return row?.version ?? 0;
}

test('"Set up your clinic" is ticked from the data', async () => {
  const clinic = await newClinic(t.server);
  const { portal: owner } = await signedIn(t.server, clinic, 'owner');
  const steps = async () =>
    Object.fromEntries(
      ((await ok(owner.query('practice.checklist.get'))).data as { step: string; done: boolean }[]).map((s) => [
        s.step,
        s.done,
      ]),
    );
  // newClinic made two keys: the integration step is done, the practice not started.
  expect(await steps()).toEqual({
    locations: false,
    practitioners: false,
    hours: false,
    appointment_types: false,
    billable_items: false,
    integration: true,
  });
  await t.server.app.db.transaction((tx) =>
    tx.update(apiKeys).set({ revoked_at: new Date().toISOString() }).where(eq(apiKeys.account_id, clinic.account.id)),
  );
  expect((await steps()).integration).toBe(false);
  await calendarFixture(t.server, clinic);
  await billingFixture(t.server, clinic);
  expect(await steps()).toEqual({
    locations: true,
    practitioners: true,
    hours: true,
    appointment_types: true,
    billable_items: true,
    integration: false,
  });
  const { portal: practitioner } = await signedIn(t.server, clinic, 'practitioner');
  expect((await practitioner.query('practice.checklist.get')).status).toBe(403);
});

describe('clinic account update', { timeout: 180_000 }, () => {
  test('changes the profile through the same rules, logged as the command line; a bad value is one line, exit 2, nothing changed', async () => {
    const clinic = await newClinic(t.server);
    const at = ['--clinic', clinic.account.subdomain, '--region', clinic.account.region];
    const bad = await cli('account', 'update', ...at, '--timezone', 'Nowhere/Else');
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^clinic: --timezone: .*IANA time zone/)]);
    expect((await stored(clinic)).timezone).toBe('Europe/London');

    const good = await cli('account', 'update', ...at, '--timezone', 'europe/dublin', '--name', 'Dublin Physio');
    expect(good.code, good.stderr).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ name: 'Dublin Physio', timezone: 'Europe/Dublin', country: 'GB' });
    expect(good.stderr).toContain('timezone changed from Europe/London to Europe/Dublin');
    expect(await profileRows(clinic)).toEqual([
      expect.objectContaining({
        actor_name: 'command line',
        changes: {
          name: { from: 'Test Clinic', to: 'Dublin Physio' },
          timezone: { from: 'Europe/London', to: 'Europe/Dublin' },
        },
      }),
    ]);
  });
});
