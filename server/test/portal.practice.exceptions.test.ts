/**
 * Dated exceptions of opening hours in the portal (practice.hours.exceptions.*): time off for a whole
 * day or some hours, and extra hours on one date. They change what REST GET /availability offers at
 * once (the cached search is not served), each write is audited with the member and announced in the
 * outbox, a date before today in the clinic's zone is refused (422 naming `date`, nothing saved), and
 * another clinic's exceptions are not found.
 */
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { auditLog, events, practitionerAvailabilities } from '../../db/schema';
import { addDays, clockFor, weekday } from '../values/wall-time';
import { newClinic, useClinic, type Clinic } from './helpers';
import { portalCode, portalData, signedIn, type PortalClient } from './support/portal';

const t = useClinic();
let owner: PortalClient;
let ownerId: number;
/** A practitioner working Mondays 09:00–13:00 at a site, offering a one-hour type. */
const set = {} as { site: number; type: number; p: number };
/** Two Mondays ahead in the clinic's zone (Europe/London), so every slot is in the future. */
let monday: string;

const db = () => t.server.app.db.db;
type Res = Awaited<ReturnType<PortalClient['mutate']>>;
async function ok(res: Promise<Res>) {
  const r = await res;
  expect(r.status, r.text).toBe(200);
  return portalData(r);
}
const errorsOf = (res: Res) => res.body?.error?.data?.errors ?? {};
const lastEventId = async (clinic: Clinic = t.clinic) =>
  (await db().select({ id: events.id }).from(events).where(eq(events.account_id, clinic.account.id))).reduce(
    (m, e) => Math.max(m, e.id),
    0,
  );
const eventsSince = (after: number) =>
  db()
    .select({ type: events.type, entity_id: events.entity_id })
    .from(events)
    .where(and(eq(events.account_id, t.clinic.account.id), gt(events.id, after)))
    .orderBy(events.id);
const datedRows = async (clinic: Clinic = t.clinic) =>
  (
    await db()
      .select({ n: count() })
      .from(practitionerAvailabilities)
      .where(and(eq(practitionerAvailabilities.account_id, clinic.account.id), isNull(practitionerAvailabilities.day)))
  )[0].n;

/** The times GET /availability offers on a day, over REST with the clinic's API key. */
const slotsOn = async (day: string) => {
  const res = await t.api.get(
    `/availability?location_id=${set.site}&appointment_type_id=${set.type}&from=${day}&to=${day}`,
  );
  expect(res.status, res.text).toBe(200);
  return res.body.data.map((s: { starts_at: string }) => s.starts_at.slice(11, 16));
};

beforeAll(async () => {
  const s = await signedIn(t.server, t.clinic, 'owner');
  owner = s.portal;
  ownerId = s.member.id;
  set.site = (await ok(owner.mutate('practice.locations.create', { name: 'Exceptions site' }))).id;
  set.type = (await ok(owner.mutate('practice.appointmentTypes.create', { name: 'Hour', duration_minutes: 60 }))).id;
  set.p = (
    await ok(
      owner.mutate('practice.practitioners.create', {
        first_name: 'Dee',
        last_name: 'Ated',
        location_ids: [set.site],
        appointment_type_ids: [set.type],
      }),
    )
  ).id;
  await ok(
    owner.mutate('practice.hours.create', {
      practitioner_id: set.p,
      location_id: set.site,
      type: 'open',
      day: '1',
      starts_at: '09:00',
      ends_at: '13:00',
    }),
  );
  const week = addDays(clockFor('Europe/London').today(), 8);
  monday = addDays(week, (8 - weekday(week)) % 7);
});

const exception = (input: Record<string, unknown>) =>
  owner.mutate('practice.hours.exceptions.create', { practitioner_id: set.p, location_id: set.site, ...input });

describe('dated exceptions', () => {
  test('a day off removes the date’s slots from GET /availability (not served from the cache), is listed, audited and announced; deleting it brings them back', async () => {
    expect(await slotsOn(monday)).toEqual(['09:00', '10:00', '11:00', '12:00']);
    const start = await lastEventId();
    const off = await ok(
      exception({ type: 'closed', date: monday, starts_at: null, ends_at: null, description: 'Training day' }),
    );
    expect(off).toMatchObject({
      type: 'closed',
      day: null,
      date: monday,
      whole_day: true,
      from: null,
      to: null,
      starts_at: `${monday}T00:00:00`,
      ends_at: `${addDays(monday, 1)}T00:00:00`,
      description: 'Training day',
    });
    expect(await slotsOn(monday)).toEqual([]);
    // The Monday after keeps its weekly hours.
    expect(await slotsOn(addDays(monday, 7))).toEqual(['09:00', '10:00', '11:00', '12:00']);

    const listed = await ok(
      owner.query('practice.hours.exceptions.list', { practitioner_id: set.p, location_id: set.site }),
    );
    expect(listed.data.map((e: { id: number; date: string }) => [e.id, e.date])).toEqual([[off.id, monday]]);
    // The weekly grid lists weekly rows only.
    const weekly = await ok(owner.query('practice.hours.list', { practitioner_id: set.p, location_id: set.site }));
    expect(weekly.data.map((r: { id: number }) => r.id)).not.toContain(off.id);

    // Some hours off instead of the whole day: the morning stays bookable.
    const changed = await ok(
      owner.mutate('practice.hours.exceptions.update', { id: off.id, starts_at: '11:00', ends_at: '13:00' }),
    );
    expect(changed).toMatchObject({ whole_day: false, from: '11:00', to: '13:00', date: monday });
    expect(await slotsOn(monday)).toEqual(['09:00', '10:00']);

    expect(await ok(owner.mutate('practice.hours.exceptions.delete', { id: off.id }))).toEqual({
      id: off.id,
      deleted: true,
    });
    expect(await slotsOn(monday)).toEqual(['09:00', '10:00', '11:00', '12:00']);

    expect(await eventsSince(start)).toEqual([
      { type: 'practitioner_availabilities.created', entity_id: off.id },
      { type: 'practitioner_availabilities.updated', entity_id: off.id },
      { type: 'practitioner_availabilities.deleted', entity_id: off.id },
    ]);
    const audit = await db()
      .select({ action: auditLog.action, actor_type: auditLog.actor_type, actor_id: auditLog.actor_id })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.account_id, t.clinic.account.id),
          eq(auditLog.entity, 'practitioner_availabilities'),
          eq(auditLog.entity_id, off.id),
        ),
      )
      .orderBy(auditLog.id);
    expect(audit).toEqual(
      ['created', 'updated', 'deleted'].map((action) => ({ action, actor_type: 'user', actor_id: ownerId })),
    );
  });

  test('extra hours on a date add slots there, up to the end of the day; the portal preview is the same search', async () => {
    const tuesday = addDays(monday, 1);
    expect(await slotsOn(tuesday)).toEqual([]);
    const extra = await ok(
      exception({ type: 'custom_availability', date: tuesday, starts_at: '22:00', ends_at: '24:00' }),
    );
    expect(extra).toMatchObject({
      date: tuesday,
      from: '22:00',
      to: '24:00',
      ends_at: `${addDays(tuesday, 1)}T00:00:00`,
    });
    expect(await slotsOn(tuesday)).toEqual(['22:00', '23:00']);
    // Next to the weekly hours on a Monday, they join them.
    const joined = await ok(
      exception({ type: 'custom_availability', date: monday, starts_at: '13:00', ends_at: '15:00' }),
    );
    expect(await slotsOn(monday)).toEqual(['09:00', '10:00', '11:00', '12:00', '13:00', '14:00']);
    await ok(owner.mutate('practice.hours.exceptions.delete', { id: joined.id }));
    await ok(owner.mutate('practice.hours.exceptions.delete', { id: extra.id }));
    expect(await slotsOn(tuesday)).toEqual([]);
  });

  test('a date in the past in the clinic’s zone is refused: 422 naming date, nothing saved or announced', async () => {
    const yesterday = addDays(clockFor('Europe/London').today(), -1);
    const before = await datedRows();
    const start = await lastEventId();
    const res = await exception({ type: 'closed', date: yesterday, starts_at: null, ends_at: null });
    expect(res.status).toBe(422);
    expect(portalCode(res)).toBe('validation_failed');
    expect(res.body.error.message).toBe(`The date ${yesterday} is in the past`);
    expect(errorsOf(res).date[0]).toMatch(/^is in the past: choose today \(\d{4}-\d{2}-\d{2}\) or a later date$/);
    // Moving an upcoming exception into the past is refused the same way, and it stays as it was.
    const kept = await ok(exception({ type: 'closed', date: monday, starts_at: null, ends_at: null }));
    const moved = await owner.mutate('practice.hours.exceptions.update', { id: kept.id, date: yesterday });
    expect(moved.status).toBe(422);
    expect(Object.keys(errorsOf(moved))).toEqual(['date']);
    expect(
      (
        await ok(owner.query('practice.hours.exceptions.list', { practitioner_id: set.p, location_id: set.site }))
      ).data.find((e: { id: number }) => e.id === kept.id),
    ).toMatchObject({ date: monday, whole_day: true });
    await ok(owner.mutate('practice.hours.exceptions.delete', { id: kept.id }));
    expect(await datedRows()).toBe(before);
    expect((await eventsSince(start)).map((e) => e.type)).toEqual([
      'practitioner_availabilities.created',
      'practitioner_availabilities.deleted',
    ]);
  });

  test('“today” is the clinic’s: the same date is today at UTC−11 and the past at UTC+14', async () => {
    const made = async (timezone: string) => {
      const clinic = await newClinic(t.server, { timezone });
      const { portal } = await signedIn(t.server, clinic, 'owner');
      const site = (await ok(portal.mutate('practice.locations.create', { name: 'Island' }))).id;
      const p = (
        await ok(
          portal.mutate('practice.practitioners.create', { first_name: 'Zo', last_name: 'Ne', location_ids: [site] }),
        )
      ).id;
      return (date: string) =>
        portal.mutate('practice.hours.exceptions.create', {
          practitioner_id: p,
          location_id: site,
          type: 'closed',
          date,
          starts_at: null,
          ends_at: null,
        });
    };
    // Pago Pago is 25 hours behind Kiritimati: its today is always a day Kiritimati has left behind.
    const pagoToday = clockFor('Pacific/Pago_Pago').today();
    expect((await (await made('Pacific/Pago_Pago'))(pagoToday)).status).toBe(200);
    const late = await (await made('Pacific/Kiritimati'))(pagoToday);
    expect(late.status).toBe(422);
    expect(Object.keys(errorsOf(late))).toEqual(['date']);
  });

  test('bad input is a 422 naming the attribute and saves nothing', async () => {
    const before = await datedRows();
    const start = await lastEventId();
    for (const [input, attribute] of [
      [{ type: 'closed', date: '2026-02-30', starts_at: null, ends_at: null }, 'date'],
      [{ type: 'closed', date: monday, starts_at: '10:00', ends_at: null }, 'ends_at'],
      [{ type: 'closed', date: monday, starts_at: '12:00', ends_at: '10:00' }, 'ends_at'],
      [{ type: 'custom_availability', date: monday, starts_at: null, ends_at: null }, 'starts_at'],
      [{ type: 'blockout', date: monday, starts_at: null, ends_at: null }, 'type'],
      [{ type: 'closed', date: monday, starts_at: '9am', ends_at: '10:00' }, 'starts_at'],
      [{ type: 'closed', date: monday, day: '1', starts_at: null, ends_at: null }, ''],
    ] as const) {
      const res = await exception(input);
      expect(res.status, JSON.stringify(input)).toBe(422);
      if (attribute) expect(Object.keys(errorsOf(res)), JSON.stringify(input)).toContain(attribute);
    }
    expect(await datedRows()).toBe(before);
    expect(await lastEventId()).toBe(start);
  });

  test('weekly rows are not exceptions (and the other way round); another clinic’s exceptions are not found', async () => {
    const weekly = (await ok(owner.query('practice.hours.list', { practitioner_id: set.p, location_id: set.site })))
      .data[0];
    for (const [proc, input] of [
      ['practice.hours.exceptions.update', { id: weekly.id, starts_at: '10:00', ends_at: '11:00' }],
      ['practice.hours.exceptions.delete', { id: weekly.id }],
    ] as const) {
      const res = await owner.mutate(proc, input);
      expect(res.status, proc).toBe(404);
    }
    const off = await ok(exception({ type: 'closed', date: monday, starts_at: null, ends_at: null }));
    const refused = await owner.mutate('practice.hours.update', { id: off.id, starts_at: '10:00' });
    expect(refused.status).toBe(422);

    const other = await newClinic(t.server);
    const { portal: elsewhere } = await signedIn(t.server, other, 'owner');
    const start = await lastEventId();
    for (const [proc, input] of [
      ['practice.hours.exceptions.update', { id: off.id, description: 'Mine now' }],
      ['practice.hours.exceptions.delete', { id: off.id }],
    ] as const) {
      const res = await elsewhere.mutate(proc, input);
      expect(res.status, proc).toBe(404);
      expect(portalCode(res)).toBe('not_found');
    }
    const theirs = await elsewhere.mutate('practice.hours.exceptions.create', {
      practitioner_id: set.p,
      location_id: set.site,
      type: 'closed',
      date: monday,
      starts_at: null,
      ends_at: null,
    });
    expect(portalCode(theirs)).toBe('practitioner_not_found');
    expect(await lastEventId()).toBe(start);
    await ok(owner.mutate('practice.hours.exceptions.delete', { id: off.id }));
  });
});
