/**
 * The clinic's practice settings in the portal (practice.settings.*): read with settings.read, saved with
 * settings.manage, bad values a 422 naming the attribute that saves nothing, each change in the audit
 * trail with the member. What staff save is what the clinic job "mark unarrived appointments missed"
 * does, driven here through the scheduler's tick on the test's clock. On a database of its own: the job
 * visits every clinic whose setting is on.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { auditLog } from '../../db/schema';
import { MARK_MISSED_JOB, markMissedJob } from '../jobs/missed';
import { Scheduler } from '../scheduler/scheduler';
import { addDays, clockFor, weekday } from '../values/wall-time';
import { client, newClinic, startServer, type Api, type Clinic, type TestServer } from './helpers';
import { calendarFixture, type Calendar } from './scheduling-fixture';
import { ownDatabaseUrl } from './support/own-database';
import { portalCode, portalData, signedIn, type PortalClient } from './support/portal';

const HOUR = 3_600_000;
let server: TestServer;
let clinic: Clinic;
let api: Api;
let cal: Calendar;
let patient: number;
let owner: PortalClient;
let ownerId: number;
let now = 0;
let scheduler: Scheduler;

/** Monday of last week in London (the clinic's zone): its appointments have ended. */
const today = clockFor('Europe/London').today();
const MONDAY = addDays(today, -7 - ((weekday(today) + 6) % 7));

type Res = Awaited<ReturnType<PortalClient['mutate']>>;
async function ok(res: Promise<Res>) {
  const r = await res;
  expect(r.status, r.text).toBe(200);
  return portalData(r);
}
const settings = async () => (await ok(owner.query('practice.settings.get'))).data;
const entries = () =>
  server.app.db.db
    .select({
      action: auditLog.action,
      actor_type: auditLog.actor_type,
      actor_id: auditLog.actor_id,
      changes: auditLog.changes,
    })
    .from(auditLog)
    .where(and(eq(auditLog.account_id, clinic.account.id), eq(auditLog.entity, 'practice_settings')))
    .orderBy(auditLog.id);
const book = async (starts_at: string) => {
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
  return res.body.data as { id: number; ends_at_utc: string };
};
const statusOf = async (id: number) => (await api.get(`/appointments/${id}`)).body.data.status;

beforeAll(async () => {
  server = await startServer({ DATABASE_URL: await ownDatabaseUrl() });
  clinic = await newClinic(server);
  api = client(server, clinic);
  cal = await calendarFixture(server, clinic);
  patient = (await api.post('/patients', { body: { first_name: 'Ada', last_name: 'Byron' } })).body.data.id;
  const s = await signedIn(server, clinic, 'owner');
  owner = s.portal;
  ownerId = s.member.id;
  scheduler = new Scheduler(server.app.db, [markMissedJob(server.app.db)], { now: () => now });
}, 60_000);
afterAll(() => server?.close());

describe('practice settings', () => {
  test('a new clinic reads the defaults (off, 2 hours) and the bounds', async () => {
    expect(await ok(owner.query('practice.settings.get'))).toEqual({
      data: { mark_missed: false, mark_missed_after_hours: 2 },
      limits: { mark_missed_after_hours: { min: 1, max: 168 } },
    });
  });

  test('bad values are a 422 naming the attribute; nothing is saved or logged', async () => {
    for (const input of [
      { mark_missed_after_hours: 0 },
      { mark_missed_after_hours: 1.5 },
      { mark_missed_after_hours: 169 },
      { mark_missed_after_hours: '3' },
      { mark_missed: 'yes' },
      { other: 1 },
    ]) {
      const res = await owner.mutate('practice.settings.update', input);
      expect(res.status, JSON.stringify(input)).toBe(422);
      const key = Object.keys(input)[0];
      if (key !== 'other') expect(Object.keys(res.body.error.data.errors ?? {}), JSON.stringify(input)).toEqual([key]);
    }
    expect(await settings()).toEqual({ mark_missed: false, mark_missed_after_hours: 2 });
    expect(await entries()).toEqual([]);
  });

  test('reading needs settings.read: a practitioner is refused; a receptionist granted settings.read alone reads but cannot save', async () => {
    const { portal: practitioner } = await signedIn(server, clinic, 'practitioner');
    const refused = await practitioner.query('practice.settings.get');
    expect(refused.status).toBe(403);
    expect(portalCode(refused)).toBe('permission_denied');
    const { portal: admin } = await signedIn(server, clinic, 'admin');
    await ok(
      admin.mutate('team.updateRole', { key: 'receptionist', permissions: ['settings.read'], record_scope: 'all' }),
    );
    const { portal: desk } = await signedIn(server, clinic, 'receptionist');
    expect((await ok(desk.query('practice.settings.get'))).data.mark_missed).toBe(false);
    const write = await desk.mutate('practice.settings.update', { mark_missed: true });
    expect(write.status).toBe(403);
    expect(await settings()).toEqual({ mark_missed: false, mark_missed_after_hours: 2 });
  });

  test('off, the job marks nothing; turned on in the portal, the next tick marks the appointment missed; turned off, no more', async () => {
    const first = await book(`${MONDAY}T09:00:00`);
    const second = await book(`${MONDAY}T13:00:00`);
    // Three hours after the later one ended: both are past a 2-hour delay.
    now = Date.parse(second.ends_at_utc) + 3 * HOUR;
    expect(await scheduler.tick()).toEqual([MARK_MISSED_JOB]);
    expect(await statusOf(first.id)).toBe('booked');

    // On, with a delay longer than either has had: still nothing.
    expect(
      await ok(owner.mutate('practice.settings.update', { mark_missed: true, mark_missed_after_hours: 48 })),
    ).toEqual({ data: { mark_missed: true, mark_missed_after_hours: 48 } });
    now += 10 * 60_000;
    expect(await scheduler.tick()).toEqual([MARK_MISSED_JOB]);
    expect(await statusOf(first.id)).toBe('booked');

    await ok(owner.mutate('practice.settings.update', { mark_missed_after_hours: 2 }));
    now += 10 * 60_000;
    expect(await scheduler.tick()).toEqual([MARK_MISSED_JOB]);
    expect(await statusOf(first.id)).toBe('missed');
    expect(await statusOf(second.id)).toBe('missed');

    await ok(owner.mutate('practice.settings.update', { mark_missed: false }));
    const third = await book(`${MONDAY}T15:00:00`);
    now = Date.parse(third.ends_at_utc) + 3 * HOUR;
    expect(await scheduler.tick()).toEqual([MARK_MISSED_JOB]);
    expect(await statusOf(third.id)).toBe('booked');

    // Each change is in the audit trail with the member and what moved; saving unchanged logs nothing.
    await ok(owner.mutate('practice.settings.update', { mark_missed: false }));
    expect(await entries()).toEqual([
      {
        action: 'updated',
        actor_type: 'user',
        actor_id: ownerId,
        changes: { mark_missed: { from: false, to: true }, mark_missed_after_hours: { from: 2, to: 48 } },
      },
      {
        action: 'updated',
        actor_type: 'user',
        actor_id: ownerId,
        changes: { mark_missed_after_hours: { from: 48, to: 2 } },
      },
      { action: 'updated', actor_type: 'user', actor_id: ownerId, changes: { mark_missed: { from: true, to: false } } },
    ]);
  });
});
