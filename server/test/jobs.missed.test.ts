/**
 * The clinic job "mark unarrived appointments missed", driven through the scheduler's tick on the
 * test's clock, on a database of its own (the job visits every clinic whose setting is on, and a clock
 * placed after other files' bookings would reach theirs). Appointments are booked, arrived, cancelled and
 * deleted through the API, in last week's diary; results are read back through the API, the events
 * feed, the outbox and the audit trail.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isPg } from '../../db/dialect';
import { auditLog } from '../../db/schema';
import { practiceSettingsOf, updatePracticeSettings } from '../domain/practice_settings';
import { MARK_MISSED_JOB, MISSED_ACTOR, markMissed, markMissedJob, unarrived } from '../jobs/missed';
import { Scheduler } from '../scheduler/scheduler';
import { addDays, clockFor, weekday } from '../values/wall-time';
import { client, eventTypes, newClinic, startServer, type Api, type Clinic, type TestServer } from './helpers';
import { calendarFixture, type Calendar } from './scheduling-fixture';
import { ownDatabaseUrl } from './support/own-database';
import { planOf, pgSorts } from './support/plans';

const HOUR = 3_600_000;
const staff = { actor_type: 'user' as const, actor_id: null, actor_name: 'test' };

let server: TestServer;
/** Clinic A turns the setting on; clinic B keeps it off. */
const A = {} as { clinic: Clinic; api: Api; cal: Calendar; patient: number };
const B = {} as typeof A;
/** Monday of last week in London (7 to 13 days ago: inside the events feed's 30 days). */
const today = clockFor('Europe/London').today();
const MONDAY = addDays(today, -7 - ((weekday(today) + 6) % 7));
const THURSDAY = addDays(MONDAY, 3);

let now = 0;
let scheduler: Scheduler;

async function setUp(side: typeof A) {
  side.clinic = await newClinic(server);
  side.api = client(server, side.clinic);
  side.cal = await calendarFixture(server, side.clinic);
  side.patient = (await side.api.post('/patients', { body: { first_name: 'Ada', last_name: 'Byron' } })).body.data.id;
}

const book = async (side: typeof A, starts_at: string) => {
  const res = await side.api.post('/appointments', {
    body: {
      patient_id: side.patient,
      practitioner_id: side.cal.p1,
      location_id: side.cal.siteA,
      appointment_type_id: side.cal.followUp,
      starts_at,
      allow_clash: true,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: number; ends_at_utc: string };
};
const statusOf = async (side: typeof A, id: number) => (await side.api.get(`/appointments/${id}`)).body.data.status;
const missedEntries = (side: typeof A, id: number) =>
  server.app.db.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.account_id, side.clinic.account.id),
        eq(auditLog.entity, 'appointments'),
        eq(auditLog.entity_id, id),
        eq(auditLog.action, 'missed'),
      ),
    );

/** Last Monday's diary of clinic A (and one of B), as the tests below find it. */
const a = {} as Record<'missed' | 'arrived' | 'cancelled' | 'deleted' | 'recent' | 'future' | 'other', number>;
let recentEnd = 0;

beforeAll(async () => {
  server = await startServer({ DATABASE_URL: await ownDatabaseUrl() });
  await setUp(A);
  await setUp(B);
  a.missed = (await book(A, `${MONDAY}T09:00:00`)).id;
  a.arrived = (await book(A, `${MONDAY}T09:00:00`)).id;
  a.cancelled = (await book(A, `${MONDAY}T09:00:00`)).id;
  a.deleted = (await book(A, `${MONDAY}T09:00:00`)).id;
  const recent = await book(A, `${MONDAY}T11:00:00`);
  a.recent = recent.id;
  recentEnd = Date.parse(recent.ends_at_utc);
  a.future = (await book(A, `${THURSDAY}T09:00:00`)).id;
  a.other = (await book(B, `${MONDAY}T09:00:00`)).id;
  expect((await A.api.post(`/appointments/${a.arrived}/arrive`)).status).toBe(200);
  expect((await A.api.post(`/appointments/${a.cancelled}/cancel`, { body: { reason: 'Unwell' } })).status).toBe(200);
  expect((await A.api.delete(`/appointments/${a.deleted}`)).status).toBe(204);
  scheduler = new Scheduler(server.app.db, [markMissedJob(server.app.db)], { now: () => now });
}, 60_000);
afterAll(() => server?.close());

describe('mark unarrived appointments missed', () => {
  test('a new clinic has the setting off: the job runs and marks nothing', async () => {
    expect(await practiceSettingsOf(server.app.db.db, A.clinic.account.id)).toEqual({
      mark_missed: false,
      mark_missed_after_hours: 2,
    });
    // An hour after the 11:00 appointment ended: the 09:00 one ended three hours ago.
    now = recentEnd + HOUR;
    expect(await scheduler.tick()).toEqual([MARK_MISSED_JOB]);
    expect(await statusOf(A, a.missed)).toBe('booked');
    expect(await eventTypes(server, A.clinic, 'appointments', a.missed)).toEqual(['appointments.created']);
  });

  test('on: the booked appointment that ended N hours ago becomes missed, announced once by the system; nothing else moves', async () => {
    await updatePracticeSettings(server.app.db, A.clinic.account, staff, { mark_missed: true });
    now += 10 * 60_000; // the job's interval since its last run
    expect(await scheduler.tick()).toEqual([MARK_MISSED_JOB]);

    expect(await statusOf(A, a.missed)).toBe('missed');
    expect(await eventTypes(server, A.clinic, 'appointments', a.missed)).toEqual([
      'appointments.created',
      'appointments.missed',
    ]);
    const [entry, ...more] = await missedEntries(A, a.missed);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      ...MISSED_ACTOR,
      changes: { status: { from: 'booked', to: 'missed' }, reason: 'Not arrived 2 hours after it ended' },
      created_at: new Date(now).toISOString(),
    });
    // The feed an integrator polls shows it, stamped on the job's clock (once no older transaction of the
    // PostgreSQL server is in flight: other files' too).
    const feed = async () => (await A.api.get(`/events?type=appointments.missed&data.id=${a.missed}`)).body.data;
    await expect.poll(feed, { timeout: 15_000 }).toEqual([
      expect.objectContaining({
        type: 'appointments.missed',
        occurred_at: new Date(now).toISOString(),
        data: { entity: 'appointments', id: a.missed },
      }),
    ]);

    expect(await statusOf(A, a.arrived)).toBe('arrived');
    expect(await statusOf(A, a.cancelled)).toBe('cancelled');
    expect((await A.api.get(`/appointments/${a.deleted}`)).status).toBe(404);
    expect(await statusOf(A, a.recent)).toBe('booked'); // ended an hour ago: not yet 2
    expect(await statusOf(A, a.future)).toBe('booked');
    expect(await statusOf(B, a.other)).toBe('booked'); // another clinic, setting off
    for (const id of [a.arrived, a.cancelled, a.deleted, a.recent, a.future])
      expect(await missedEntries(A, id)).toEqual([]);
    expect(await eventTypes(server, B.clinic, 'appointments', a.other)).toEqual(['appointments.created']);
  });

  test('idempotent: the next run marks nothing and announces nothing again; a shorter delay setting reaches the later one', async () => {
    now += 10 * 60_000;
    expect(await scheduler.tick()).toEqual([MARK_MISSED_JOB]);
    expect(await eventTypes(server, A.clinic, 'appointments', a.missed)).toEqual([
      'appointments.created',
      'appointments.missed',
    ]);
    expect((await missedEntries(A, a.missed)).length).toBe(1);
    expect(await statusOf(A, a.recent)).toBe('booked');

    await updatePracticeSettings(server.app.db, A.clinic.account, staff, { mark_missed_after_hours: 1 });
    now += 10 * 60_000;
    expect(await scheduler.tick()).toEqual([MARK_MISSED_JOB]);
    expect(await statusOf(A, a.recent)).toBe('missed');
    expect((await missedEntries(A, a.recent))[0].changes).toMatchObject({
      reason: 'Not arrived 1 hour after it ended',
    });
    expect((await missedEntries(A, a.missed)).length).toBe(1);
  });

  test('bounded: at most N appointments of a clinic per run, oldest end first; the rest at the next ticks', async () => {
    const tuesday = addDays(MONDAY, 1);
    const backlog: number[] = [];
    for (const time of ['10:30', '09:00', '10:00', '09:30', '11:00'])
      backlog.push((await book(A, `${tuesday}T${time}:00`)).id);
    const byEnd = [backlog[1], backlog[3], backlog[2], backlog[0], backlog[4]];
    const bounded = new Scheduler(server.app.db, [markMissedJob(server.app.db, 2)], { now: () => now });
    now = Date.parse(`${addDays(MONDAY, 2)}T00:00:00Z`); // Wednesday: Tuesday's all ended hours ago, Thursday's to come
    const missedOf = async () => {
      const out: number[] = [];
      for (const id of byEnd) if ((await statusOf(A, id)) === 'missed') out.push(id);
      return out;
    };
    expect(await bounded.tick()).toEqual([MARK_MISSED_JOB]);
    expect(await missedOf()).toEqual(byEnd.slice(0, 2));
    // More were left: due again at once, on the same clock.
    expect(await bounded.tick()).toEqual([MARK_MISSED_JOB]);
    expect(await missedOf()).toEqual(byEnd.slice(0, 4));
    expect(await bounded.tick()).toEqual([MARK_MISSED_JOB]);
    expect(await missedOf()).toEqual(byEnd);
    // Done: the job waits its interval.
    expect(await bounded.tick()).toEqual([]);
    expect(await statusOf(A, a.future)).toBe('booked');
    expect(await statusOf(B, a.other)).toBe('booked');
  });

  test('a run that loses its lease stops before the next clinic and leaves the rest for the next run', async () => {
    const wednesday = addDays(MONDAY, 2);
    const left = (await book(A, `${wednesday}T09:00:00`)).id;
    now = Date.parse(`${THURSDAY}T00:00:00Z`);
    expect(await markMissed(server.app.db, { now: () => now, renew: async () => false })).toEqual({
      marked: 0,
      more: true,
    });
    expect(await statusOf(A, left)).toBe('booked');
    expect(await markMissed(server.app.db, { now: () => now, renew: async () => true })).toEqual({
      marked: 1,
      more: false,
    });
    expect(await statusOf(A, left)).toBe('missed');
  });

  test(`the job's read is served by appointments_unarrived_idx, led by account_id, without a sort`, async () => {
    const query = unarrived(server.app.db, A.clinic.account.id, new Date(now).toISOString(), 100).toSQL();
    const plan = await planOf(server, query, 'appointments');
    expect(plan).toContain('appointments_unarrived_idx');
    if (isPg) {
      expect(plan).toMatch(/"Index Cond":"[^"]*account_id = /);
      expect(pgSorts(plan)).toBe(false);
    } else {
      expect(plan).not.toContain('TEMP B-TREE');
    }
  });

  test('the demo seed turns the setting on', async () => {
    const demo = await newClinic(server, { seed: true });
    expect(await practiceSettingsOf(server.app.db.db, demo.account.id)).toEqual({
      mark_missed: true,
      mark_missed_after_hours: 2,
    });
  }, 60_000);
});
