/**
 * Cached availability searches expire by diary: a booking expires the searches that read its
 * practitioner's or its resource's diary, at once and from any process (the counters live in the
 * database), and leaves the other practitioners' searches cached; a search over every practitioner
 * recomputes only the practitioner whose diary moved. The search is called in process with
 * a database handle that records statements, so a reuse (no read of appointments) can be told from a
 * recomputation.
 */
import { and, eq, ne } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { resources } from '../../db/schema';
import { findAvailability, type AvailabilityQuery } from '../domain/scheduling/availability';
import { useClinic } from './helpers';
import { calendarFixture, D, type Calendar } from './scheduling-fixture';
import { recordingDb } from './support/recording-db';

const t = useClinic();
let cal: Calendar;
let patientId: number;

beforeAll(async () => {
  cal = await calendarFixture(t.server, t.clinic);
  patientId = (await t.api.post('/patients', { body: { first_name: 'Ada', last_name: 'Cache' } })).body.data.id;
  // Table A is the only active resource at Site A: a massage needs it.
  await t.server.app.db.transaction((tx) =>
    tx
      .update(resources)
      .set({ status: 'inactive' })
      .where(and(eq(resources.account_id, t.clinic.account.id), ne(resources.id, cal.tableA))),
  );
});

/** Searches `q` and says whether it read the diary (appointments) or reused a cached result. */
async function searched(q: Omit<AvailabilityQuery, 'visibility'>) {
  const { db, statements } = recordingDb(t.server);
  const found = await findAvailability(db, t.clinic.account, { ...q, visibility: 'all' });
  const diaryReads = statements.filter((s) => /from\s+"?appointments"?/i.test(s.sql));
  // How many practitioners' bookings it read: the placeholders of its `practitioner_id in (…)`.
  const practitionersRead = diaryReads.reduce(
    (n, s) => n + (/"practitioner_id" in \(([^)]*)\)/i.exec(s.sql)?.[1]?.split(',').length ?? 0),
    0,
  );
  return {
    starts: found.data.map((s) => `${s.practitioner_id} ${s.starts_at}`),
    readDiary: diaryReads.length > 0,
    practitionersRead,
  };
}

const book = (body: Record<string, unknown>) =>
  t.api.post('/appointments', { body: { patient_id: patientId, location_id: cal.siteA, ...body } });

it("a booking expires its practitioner's searches and leaves another practitioner's cached", async () => {
  const ones = {
    location_id: cal.siteA,
    appointment_type_id: cal.followUp,
    practitioner_id: cal.p1,
    from: D(7),
    to: D(7),
  };
  const twos = { ...ones, practitioner_id: cal.p2 };
  expect((await searched(ones)).readDiary).toBe(true);
  expect((await searched(ones)).readDiary, 'the same search again is reused').toBe(false);
  expect((await searched(twos)).readDiary).toBe(true);

  expect(
    (await book({ practitioner_id: cal.p2, appointment_type_id: cal.followUp, starts_at: `${D(7)}T09:00:00` })).status,
  ).toBe(201);
  const one = await searched(ones);
  expect(one.readDiary, "Two's booking leaves One's search cached").toBe(false);
  expect(one.starts).toContain(`${cal.p1} ${D(7)}T09:00:00`);
  const two = await searched(twos);
  expect(two.readDiary).toBe(true);
  expect(two.starts).not.toContain(`${cal.p2} ${D(7)}T09:00:00`);

  expect(
    (await book({ practitioner_id: cal.p1, appointment_type_id: cal.followUp, starts_at: `${D(7)}T10:00:00` })).status,
  ).toBe(201);
  const after = await searched(ones);
  expect(after.readDiary).toBe(true);
  expect(after.starts).not.toContain(`${cal.p1} ${D(7)}T10:00:00`);
});

it('a booking that takes a resource expires the searches of every practitioner who could use it', async () => {
  // One's massages need Table A; Two books a follow-up in Table A at 09:00 on Wednesday.
  const massages = {
    location_id: cal.siteA,
    appointment_type_id: cal.massage,
    practitioner_id: cal.p1,
    from: D(9),
    to: D(9),
  };
  expect((await searched(massages)).starts).toContain(`${cal.p1} ${D(9)}T09:00:00`);
  expect((await searched(massages)).readDiary).toBe(false);
  const taken = await book({
    practitioner_id: cal.p2,
    appointment_type_id: cal.followUp,
    resource_id: cal.tableA,
    starts_at: `${D(9)}T09:00:00`,
  });
  expect(taken.status).toBe(201);
  const after = await searched(massages);
  expect(after.readDiary).toBe(true);
  expect(after.starts, 'Table A is taken at 09:00').not.toContain(`${cal.p1} ${D(9)}T09:00:00`);
  // And the search offers nothing the booking would refuse.
  expect(
    (await book({ practitioner_id: cal.p1, appointment_type_id: cal.massage, starts_at: `${D(9)}T09:00:00` })).body
      .code,
  ).toBe('slot_unavailable');
});

it('a search over every practitioner recomputes only the practitioner whose diary moved', async () => {
  const everyone = { location_id: cal.siteA, appointment_type_id: cal.followUp, from: D(14), to: D(14) };
  const before = await searched(everyone);
  expect(before.practitionersRead).toBeGreaterThan(1);
  expect(before.starts).toContain(`${cal.p1} ${D(14)}T09:00:00`);
  expect(before.starts).toContain(`${cal.p2} ${D(14)}T09:00:00`);
  expect((await searched(everyone)).readDiary, 'the same search again is reused').toBe(false);

  expect(
    (await book({ practitioner_id: cal.p2, appointment_type_id: cal.followUp, starts_at: `${D(14)}T09:00:00` })).status,
  ).toBe(201);
  const after = await searched(everyone);
  expect(after.practitionersRead, "only Two's bookings are read again").toBe(1);
  expect(after.starts).not.toContain(`${cal.p2} ${D(14)}T09:00:00`);
  const ones = (starts: string[]) => starts.filter((s) => s.startsWith(`${cal.p1} `));
  expect(ones(after.starts), "One's slots are kept as they were").toEqual(ones(before.starts));
  expect(after.starts.length).toBeLessThan(before.starts.length);
});
