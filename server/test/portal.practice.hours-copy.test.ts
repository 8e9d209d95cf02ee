/**
 * "Copy a day" on the Opening hours page (practice.hours.copyDay, review point 13): one weekday's working
 * hours and breaks replace those of the days chosen, in one transaction, each row removed and added in
 * the activity log and announced as by hand; other kinds of rows stay; a day with nothing to copy, an
 * unknown day or a member without the setup permission is refused with nothing changed.
 */
import { and, count, eq, gt } from 'drizzle-orm';
import { beforeAll, expect, test } from 'vitest';
import { auditLog, events, practitionerAvailabilities } from '../../db/schema';
import { clinicRows, useClinic } from './helpers';
import { calendarFixture, type Calendar } from './scheduling-fixture';
import { portalData, signedIn, type PortalClient } from './support/portal';

const t = useClinic();
let cal: Calendar;
let owner: PortalClient;
beforeAll(async () => {
  cal = await calendarFixture(t.server, t.clinic);
  owner = (await signedIn(t.server, t.clinic, 'owner')).portal;
});

const weekly = async (day: string) =>
  (
    portalData(await owner.query('practice.hours.list', { practitioner_id: cal.p1, location_id: cal.siteA })).data as {
      day: string;
      type: string;
      starts_at: string;
      ends_at: string;
    }[]
  )
    .filter((h) => h.day === day)
    .map((h) => `${h.type} ${h.starts_at}–${h.ends_at}`);
const rowsSince = async (table: typeof auditLog | typeof events, id: number) =>
  Number(
    (
      await t.server.app.db.db
        .select({ n: count() })
        .from(table)
        .where(and(eq(table.account_id, t.clinic.account.id), gt(table.id, id)))
    )[0].n,
  );
const lastId = async (table: typeof auditLog | typeof events) =>
  Number(
    (
      await t.server.app.db.db
        .select({ id: table.id })
        .from(table)
        .where(eq(table.account_id, t.clinic.account.id))
        .orderBy(table.id)
    ).at(-1)?.id ?? 0,
  );
const allRows = () => clinicRows(t.server, t.clinic, practitionerAvailabilities);

test("Sunday's hours replace Monday's working hours and break and fill Saturday; each row audited and announced", async () => {
  expect(await weekly('1')).toEqual(['open 09:00–17:00', 'break 12:00–13:00']);
  expect(await weekly('6')).toEqual([]);
  const [audits, announced] = [await lastId(auditLog), await lastId(events)];
  const res = await owner.mutate('practice.hours.copyDay', {
    practitioner_id: cal.p1,
    location_id: cal.siteA,
    from_day: '0',
    to_days: ['1', '6', '0'],
  });
  expect(res.status, res.text).toBe(200);
  expect(portalData(res)).toEqual({ rows: 1, days: ['Monday', 'Saturday'] });
  expect(await weekly('1')).toEqual(['open 00:00–05:00']);
  expect(await weekly('6')).toEqual(['open 00:00–05:00']);
  expect(await weekly('0')).toEqual(['open 00:00–05:00']);
  // Monday: two rows removed, one added; Saturday: one added.
  expect(await rowsSince(auditLog, audits)).toBe(4);
  expect(await rowsSince(events, announced)).toBe(4);
  // The guide over Monday morning is not working hours: it stays.
  const [guide] = await t.server.app.db.db
    .select({ n: count() })
    .from(practitionerAvailabilities)
    .where(
      and(
        eq(practitionerAvailabilities.account_id, t.clinic.account.id),
        eq(practitionerAvailabilities.day, '1'),
        eq(practitionerAvailabilities.type, 'appt_guide'),
      ),
    );
  expect(Number(guide.n)).toBe(1);
});

test.each([
  [{ from_day: '6', to_days: ['2'] }, 'from_day'],
  [{ from_day: '1', to_days: [] }, 'to_days'],
  [{ from_day: '1', to_days: ['8'] }, 'to_days.0'],
  [{ from_day: '1', to_days: ['2'], extra: true }, null],
])('%j is refused and changes nothing', async (input, field) => {
  // At Site B the practitioner has no hours: Saturday there has nothing to copy.
  const before = await allRows();
  const body = { practitioner_id: cal.p1, location_id: cal.siteB, ...input };
  const res = await owner.mutate('practice.hours.copyDay', body);
  expect(res.status, res.text).toBe(422);
  if (field) expect(Object.keys(res.body.error.data.errors ?? {})).toContain(field);
  expect(await allRows()).toBe(before);
});

test('a member without the setup permission cannot copy', async () => {
  const { portal: practitioner } = await signedIn(t.server, t.clinic, 'practitioner');
  const before = await allRows();
  const res = await practitioner.mutate('practice.hours.copyDay', {
    practitioner_id: cal.p1,
    location_id: cal.siteA,
    from_day: '1',
    to_days: ['2'],
  });
  expect(res.status).toBe(403);
  expect(await allRows()).toBe(before);
});
