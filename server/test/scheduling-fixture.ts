/**
 * A small, fixed calendar for the scheduling tests (the demo seed's dates move with today). Inserted
 * straight into the database: these resources are read-only through the API.
 */
import { appointmentTypes, locations, practitionerAvailabilities, practitioners, resources } from '../../db/schema';
import { addDays, weekday } from '../values/wall-time';
import type { Db } from '../../db/client';
import type { Clinic, TestServer } from './helpers';

/**
 * Test dates, always in the future: next year's second full week of January is the base week (winter in
 * London, so wall time = UTC there), and the DST changes are next year's.
 */
const YEAR = new Date().getUTCFullYear() + 1;
const onOrAfter = (date: string, dow: number) => {
  let d = date;
  while (weekday(d) !== dow) d = addDays(d, 1);
  return d;
};
const MONDAY = onOrAfter(`${YEAR}-01-11`, 1);
/** The base Monday plus n days. */
export const D = (n: number) => addDays(MONDAY, n);
export const SUMMER_MONDAY = onOrAfter(`${YEAR}-07-05`, 1);
/** The last Sunday of a 31-day month falls on the 25th to the 31st. */
const lastSunday = (month: number) => onOrAfter(`${YEAR}-${String(month).padStart(2, '0')}-25`, 0);
export const DST = {
  /** Europe/London: clocks go forward 01:00 → 02:00 on the last Sunday of March, back on the last Sunday of October. */
  londonSpring: lastSunday(3),
  londonAutumn: lastSunday(10),
  /** Australia/Sydney: forward 02:00 → 03:00 on the first Sunday of October, back 03:00 → 02:00 on the first Sunday of April. */
  sydneySpring: onOrAfter(`${YEAR}-10-01`, 0),
  sydneyAutumn: onOrAfter(`${YEAR}-04-01`, 0),
};

type Avail = typeof practitionerAvailabilities.$inferInsert;

/** Inserted directly (these resources are read-only through the API), in one transaction: the only way to write. */
export function calendarFixture(server: TestServer, clinic: Clinic) {
  return server.app.db.transaction((db) => insertCalendar(db, clinic));
}

async function insertCalendar(db: Db, clinic: Clinic) {
  const now = new Date().toISOString();
  const base = { account_id: clinic.account.id, metadata: {}, created_at: now, updated_at: now };
  const ids = async (q: Promise<{ id: number }[]>) => (await q).map((r) => r.id);

  const [siteA, siteB] = await ids(
    db
      .insert(locations)
      .values([
        { ...base, name: 'Site A', online_booking: true },
        { ...base, name: 'Site B', online_booking: false },
      ])
      .returning({ id: locations.id }),
  );
  const type = (name: string, duration_minutes: number, extra: Partial<typeof appointmentTypes.$inferInsert> = {}) => ({
    ...base,
    name,
    duration_minutes,
    online_booking: true,
    active: true,
    requires_resource: false,
    ...extra,
  });
  const [followUp, assessment, massage, pilates, retired, phoneOnly, unassigned] = await ids(
    db
      .insert(appointmentTypes)
      .values([
        type('Follow-up', 30, { max_attendees: 1 }),
        type('Assessment', 60),
        type('Massage', 45, { requires_resource: true }),
        type('Pilates', 60, { max_attendees: 2 }),
        type('Retired', 30, { active: false }),
        type('Phone only', 30, { online_booking: false }),
        type('Nobody offers this', 30),
      ])
      .returning({ id: appointmentTypes.id }),
  );
  const allTypes = [followUp, assessment, massage, pilates, retired, phoneOnly];
  const person = (first_name: string, extra: Partial<typeof practitioners.$inferInsert>) => ({
    ...base,
    first_name,
    last_name: 'Test',
    active: true,
    online_booking: true,
    location_ids: [siteA],
    appointment_type_ids: allTypes,
    ...extra,
  });
  const [p1, p2, p3, p4] = await ids(
    db
      .insert(practitioners)
      .values([
        person('One', {}),
        person('Two', {
          online_booking: false,
          location_ids: [siteA, siteB],
          appointment_type_ids: [followUp, assessment],
        }),
        person('Three', { active: false, appointment_type_ids: [followUp] }),
        person('Four', { appointment_type_ids: [] }),
      ])
      .returning({ id: practitioners.id }),
  );
  const resource = (
    name: string,
    location_id: number,
    sort_order: number,
    status: 'active' | 'inactive' = 'active',
  ) => ({ ...base, name, location_id, sort_order, status, locked: false });
  const [tableA, tableB, closedRoom, roomB] = await ids(
    db
      .insert(resources)
      .values([
        resource('Table A', siteA, 1),
        resource('Table B', siteA, 2),
        resource('Closed room', siteA, 3, 'inactive'),
        resource('Room B', siteB, 1),
      ])
      .returning({ id: resources.id }),
  );

  const rows: Avail[] = [];
  const weekly = (
    practitioner_id: number | null,
    location_id: number,
    days: number[],
    type: Avail['type'],
    starts_at: string,
    ends_at: string,
    extra: Partial<Avail> = {},
  ) =>
    days.forEach((d) =>
      rows.push({
        ...base,
        practitioner_id,
        location_id,
        day: String(d),
        type,
        starts_at,
        ends_at,
        online_booking: type === 'open',
        ...extra,
      }),
    );
  const dated = (
    practitioner_id: number | null,
    location_id: number,
    type: Avail['type'],
    starts_at: string,
    ends_at: string,
    extra: Partial<Avail> = {},
  ) =>
    rows.push({
      ...base,
      practitioner_id,
      location_id,
      day: null,
      type,
      starts_at,
      ends_at,
      online_booking: false,
      ...extra,
    });
  weekly(p1, siteA, [1, 2, 3, 4, 5], 'open', '09:00', '17:00');
  weekly(p1, siteA, [1, 2, 3, 4, 5], 'break', '12:00', '13:00');
  // Night hours on Sundays: the DST tests walk through the changed hour.
  weekly(p1, siteA, [0], 'open', '00:00', '05:00');
  weekly(p2, siteA, [1, 3], 'open', '09:00', '12:00', { online_booking: false });
  // A guide over the morning: it must neither open nor close time.
  weekly(p1, siteA, [1], 'appt_guide', '09:00', '11:00', { online_booking: true });
  dated(p1, siteA, 'blockout', `${D(1)}T10:00:00`, `${D(1)}T11:00:00`);
  dated(null, siteA, 'closed', `${D(2)}T00:00:00`, `${D(2)}T23:59:00`, { span_all_columns: true });
  dated(p1, siteA, 'blockout', `${D(3)}T09:00:00`, `${D(3)}T17:00:00`, { resource_id: tableA });
  dated(p1, siteA, 'blockout', `${D(4)}T14:00:00`, `${D(4)}T17:00:00`, { resource_id: tableA, span_all_columns: true });
  dated(p1, siteA, 'custom_availability', `${D(5)}T10:00:00`, `${D(5)}T12:00:00`, { online_booking: true });
  dated(p1, siteA, 'custom_availability', `${D(6)}T10:00:00`, `${D(6)}T11:00:00`, { online_booking: false });
  await db.insert(practitionerAvailabilities).values(rows);

  return {
    siteA,
    siteB,
    followUp,
    assessment,
    massage,
    pilates,
    retired,
    phoneOnly,
    unassigned,
    p1,
    p2,
    p3,
    p4,
    tableA,
    tableB,
    closedRoom,
    roomB,
  };
}

export type Calendar = Awaited<ReturnType<typeof calendarFixture>>;
