/**
 * Clinic-wide closures on the Opening hours page (practice.hours.closures.*, review point 13): a bank
 * holiday entered once closes every location (or one) for every practitioner, and GET /availability
 * offers nothing there that day; removing one location's closure gives its slots back. A date gone by,
 * another clinic's location, or a practitioner's own time off offered as a closure are refused with
 * nothing changed; a member without the setup permission cannot close the clinic.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, test } from 'vitest';
import { practitionerAvailabilities } from '../../db/schema';
import { clinicRows, newClinic, useClinic } from './helpers';
import { calendarFixture, D, type Calendar } from './scheduling-fixture';
import { portalCode, portalData, signedIn, type PortalClient } from './support/portal';

const t = useClinic();
let cal: Calendar;
let owner: PortalClient;
beforeAll(async () => {
  cal = await calendarFixture(t.server, t.clinic);
  owner = (await signedIn(t.server, t.clinic, 'owner')).portal;
});

const HOLIDAY = D(7);
const slots = async (location: number) =>
  (
    await t.api.get(
      `/availability?location_id=${location}&appointment_type_id=${cal.followUp}&practitioner_id=${cal.p1}&from=${HOLIDAY}&to=${HOLIDAY}`,
    )
  ).body.data as unknown[];
const rows = () => clinicRows(t.server, t.clinic, practitionerAvailabilities);

test('a bank holiday closes every location for everyone; removing one location’s closure gives its slots back', async () => {
  expect((await slots(cal.siteA)).length).toBeGreaterThan(0);
  const res = await owner.mutate('practice.hours.closures.create', {
    location_id: null,
    date: HOLIDAY,
    starts_at: null,
    ends_at: null,
    description: 'Bank holiday',
  });
  expect(res.status, res.text).toBe(200);
  expect(portalData(res).data.map((c: { location: string }) => c.location)).toEqual(['Site A', 'Site B']);
  expect(await slots(cal.siteA)).toEqual([]);
  const listed = portalData(await owner.query('practice.hours.closures.list')).data as {
    id: number;
    location: string;
    date: string;
    whole_day: boolean;
    description: string;
  }[];
  // The fixture's own closure of Site A earlier that week is listed too.
  const holiday = listed.filter((c) => c.date === HOLIDAY);
  expect(holiday.map((c) => [c.location, c.date, c.whole_day, c.description])).toEqual([
    ['Site A', HOLIDAY, true, 'Bank holiday'],
    ['Site B', HOLIDAY, true, 'Bank holiday'],
  ]);
  // As the API gives it: a dated closed row of no practitioner.
  const [stored] = await t.server.app.db.db
    .select()
    .from(practitionerAvailabilities)
    .where(
      and(
        eq(practitionerAvailabilities.account_id, t.clinic.account.id),
        eq(practitionerAvailabilities.id, holiday[0].id),
      ),
    );
  expect(stored).toMatchObject({ practitioner_id: null, type: 'closed', day: null, starts_at: `${HOLIDAY}T00:00:00` });

  const removed = await owner.mutate('practice.hours.closures.delete', { id: holiday[0].id });
  expect(removed.status, removed.text).toBe(200);
  expect((await slots(cal.siteA)).length).toBeGreaterThan(0);
});

test('a date gone by, another clinic’s location, or a practitioner’s time off as a closure: refused, nothing changed', async () => {
  const before = await rows();
  const past = await owner.mutate('practice.hours.closures.create', {
    location_id: null,
    date: '2020-01-01',
    starts_at: null,
    ends_at: null,
  });
  expect(past.status, past.text).toBe(422);
  expect(past.text).toMatch(/in the past/);
  const other = await newClinic(t.server);
  const elsewhere = (await calendarFixture(t.server, other)).siteA;
  const foreign = await owner.mutate('practice.hours.closures.create', {
    location_id: elsewhere,
    date: HOLIDAY,
    starts_at: null,
    ends_at: null,
  });
  expect(foreign.status).toBe(422);
  expect(portalCode(foreign)).toBe('location_not_found');
  const [timeOff] = await t.server.app.db.db
    .select({ id: practitionerAvailabilities.id })
    .from(practitionerAvailabilities)
    .where(
      and(
        eq(practitionerAvailabilities.account_id, t.clinic.account.id),
        eq(practitionerAvailabilities.type, 'blockout'),
      ),
    );
  expect((await owner.mutate('practice.hours.closures.delete', { id: timeOff.id })).status).toBe(404);
  expect(await rows()).toBe(before);

  const { portal: practitioner } = await signedIn(t.server, t.clinic, 'practitioner');
  const refused = await practitioner.mutate('practice.hours.closures.create', {
    location_id: null,
    date: HOLIDAY,
    starts_at: null,
    ends_at: null,
  });
  expect(refused.status).toBe(403);
  expect(await rows()).toBe(before);
});
