/**
 * Practice setup in the portal (server/routers/portal/practice): staff create, change and delete
 * locations, appointment types, practitioners and weekly hours. Each write is audited with the member as
 * actor and announced in the outbox; bad input is a 422 with the attribute and changes nothing; another
 * clinic's ids are not found; records in use are refused with the reason; the hours set here are the
 * slots GET /availability offers over REST.
 */
import { and, count, eq, gt } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { auditLog, events, locations, practitionerAvailabilities } from '../../db/schema';
import { newClinic, useClinic, type Clinic } from './helpers';
import { portalCode, portalData, signedIn, type PortalClient } from './support/portal';

const t = useClinic();
let owner: PortalClient;
let ownerId: number;

beforeAll(async () => {
  const s = await signedIn(t.server, t.clinic, 'owner');
  owner = s.portal;
  ownerId = s.member.id;
});

const db = () => t.server.app.db.db;
const lastEventId = async (clinic: Clinic = t.clinic) =>
  (await db().select({ id: events.id }).from(events).where(eq(events.account_id, clinic.account.id))).reduce(
    (m, e) => Math.max(m, e.id),
    0,
  );
const eventsSince = async (after: number) =>
  db()
    .select({ type: events.type, entity_id: events.entity_id })
    .from(events)
    .where(and(eq(events.account_id, t.clinic.account.id), gt(events.id, after)))
    .orderBy(events.id);
const auditOf = (entity: string, id: number) =>
  db()
    .select({ action: auditLog.action, actor_type: auditLog.actor_type, actor_id: auditLog.actor_id })
    .from(auditLog)
    .where(and(eq(auditLog.account_id, t.clinic.account.id), eq(auditLog.entity, entity), eq(auditLog.entity_id, id)))
    .orderBy(auditLog.id);
const countLocations = async (clinic: Clinic = t.clinic) =>
  (await db().select({ n: count() }).from(locations).where(eq(locations.account_id, clinic.account.id)))[0].n;

/** The data of a call that must succeed. */
async function ok(res: Promise<Awaited<ReturnType<PortalClient['mutate']>>>) {
  const r = await res;
  expect(r.status, r.text).toBe(200);
  return portalData(r);
}
const errorsOf = (res: Awaited<ReturnType<PortalClient['mutate']>>) => res.body?.error?.data?.errors ?? {};

describe('locations', () => {
  test('create → update → delete: each audited with the member and announced once', async () => {
    const start = await lastEventId();
    const made = await ok(
      owner.mutate('practice.locations.create', {
        name: '  Harbour Street ',
        city: 'Leeds',
        country: 'gb',
        email: '',
        phone: '',
      }),
    );
    expect(made).toMatchObject({
      name: 'Harbour Street',
      city: 'Leeds',
      country: 'GB',
      email: null,
      phone: null,
      online_booking: false,
    });
    const changed = await ok(
      owner.mutate('practice.locations.update', { id: made.id, online_booking: true, postal_code: 'LS1 4AB' }),
    );
    expect(changed).toMatchObject({
      id: made.id,
      online_booking: true,
      postal_code: 'LS1 4AB',
      name: 'Harbour Street',
    });
    // Saved unchanged: nothing to audit or announce.
    await ok(owner.mutate('practice.locations.update', { id: made.id, online_booking: true }));
    expect(await ok(owner.mutate('practice.locations.delete', { id: made.id }))).toEqual({
      id: made.id,
      deleted: true,
    });

    expect(await eventsSince(start)).toEqual([
      { type: 'locations.created', entity_id: made.id },
      { type: 'locations.updated', entity_id: made.id },
      { type: 'locations.deleted', entity_id: made.id },
    ]);
    expect(await auditOf('locations', made.id)).toEqual(
      ['created', 'updated', 'deleted'].map((action) => ({ action, actor_type: 'user', actor_id: ownerId })),
    );
    // The API reads what staff wrote, and lists the deletion for pollers.
    expect((await t.api.get(`/locations/${made.id}`)).status).toBe(404);
    const gone = await t.api.get(`/deleted_entities?entity=locations`);
    expect(gone.body.data.map((d: { entity_id: number }) => d.entity_id)).toContain(made.id);
  });

  test('bad input is a 422 naming the attribute and saves nothing', async () => {
    const before = await countLocations();
    const start = await lastEventId();
    for (const [input, attribute] of [
      [{ name: '   ' }, 'name'],
      [{ name: 'X', country: 'Great Britain' }, 'country'],
      [{ name: 'X', country: 'xx' }, 'country'],
      [{ name: 'X', email: 'not an email' }, 'email'],
      [{ name: 'X', unknown: 1 }, ''],
    ] as const) {
      const res = await owner.mutate('practice.locations.create', input);
      expect(res.status, JSON.stringify(input)).toBe(422);
      expect(portalCode(res)).toBe('validation_failed');
      if (attribute) expect(Object.keys(errorsOf(res))).toEqual([attribute]);
    }
    expect(await countLocations()).toBe(before);
    expect(await lastEventId()).toBe(start);
  });

  test('a location in use is not deleted: 409 saying what uses it', async () => {
    const site = await ok(owner.mutate('practice.locations.create', { name: 'Busy site' }));
    await ok(
      owner.mutate('practice.practitioners.create', { first_name: 'Ada', last_name: 'Works', location_ids: [site.id] }),
    );
    const res = await owner.mutate('practice.locations.delete', { id: site.id });
    expect(res.status).toBe(409);
    expect(portalCode(res)).toBe('conflict');
    expect(res.body.error.message).toMatch(/Busy site is in use \(1 practitioner\)/);
    expect((await t.api.get(`/locations/${site.id}`)).status).toBe(200);
  });
});

describe('appointment types', () => {
  test('create with defaults, update, 422 on a bad duration or colour, delete refused once booked (make it inactive)', async () => {
    const type = await ok(
      owner.mutate('practice.appointmentTypes.create', {
        name: 'Initial assessment',
        duration_minutes: 45,
        color: '#3366cc',
      }),
    );
    expect(type).toMatchObject({
      duration_minutes: 45,
      color: '#3366cc',
      active: true,
      online_booking: false,
      requires_resource: false,
      max_attendees: null,
    });
    for (const [input, attribute] of [
      [{ duration_minutes: 0 }, 'duration_minutes'],
      [{ duration_minutes: 30.5 }, 'duration_minutes'],
      [{ color: 'blue' }, 'color'],
      [{ max_attendees: 1 }, 'max_attendees'],
    ] as const) {
      const res = await owner.mutate('practice.appointmentTypes.update', { id: type.id, ...input });
      expect(res.status).toBe(422);
      expect(Object.keys(errorsOf(res))).toEqual([attribute]);
    }
    expect((await t.api.get(`/appointment_types/${type.id}`)).body.data).toMatchObject({
      duration_minutes: 45,
      color: '#3366cc',
      max_attendees: null,
    });
    expect(
      await ok(
        owner.mutate('practice.appointmentTypes.update', { id: type.id, max_attendees: 6, online_booking: true }),
      ),
    ).toMatchObject({ max_attendees: 6, online_booking: true });
    const unused = await ok(owner.mutate('practice.appointmentTypes.create', { name: 'Unused', duration_minutes: 30 }));
    expect((await owner.mutate('practice.appointmentTypes.delete', { id: unused.id })).status).toBe(200);
  });
});

describe('practitioners and weekly hours, through to the API’s availability', () => {
  test('a practitioner offering a type at a location, Monday hours with a break: GET /availability offers those slots', async () => {
    const site = await ok(owner.mutate('practice.locations.create', { name: 'Slots site' }));
    const type = await ok(
      owner.mutate('practice.appointmentTypes.create', { name: 'Follow-up', duration_minutes: 60 }),
    );
    const other = await newClinic(t.server);
    const { portal: elsewhere } = await signedIn(t.server, other, 'owner');
    const foreignSite = await ok(elsewhere.mutate('practice.locations.create', { name: 'Not yours' }));

    // Another clinic's location is not one of this clinic's: 422, nothing saved.
    const foreign = await owner.mutate('practice.practitioners.create', {
      first_name: 'Bea',
      last_name: 'Hours',
      location_ids: [foreignSite.id],
    });
    expect(foreign.status).toBe(422);
    expect(portalCode(foreign)).toBe('location_not_found');

    const p = await ok(
      owner.mutate('practice.practitioners.create', {
        first_name: 'Bea',
        last_name: 'Hours',
        title: 'Dr',
        location_ids: [site.id],
        appointment_type_ids: [type.id, type.id],
      }),
    );
    expect(p).toMatchObject({ active: true, location_ids: [site.id], appointment_type_ids: [type.id] });

    const start = await lastEventId();
    const open = await ok(
      owner.mutate('practice.hours.create', {
        practitioner_id: p.id,
        location_id: site.id,
        type: 'open',
        day: '1',
        starts_at: '09:00',
        ends_at: '13:00',
      }),
    );
    const lunch = await ok(
      owner.mutate('practice.hours.create', {
        practitioner_id: p.id,
        location_id: site.id,
        type: 'break',
        day: '1',
        starts_at: '11:00',
        ends_at: '12:00',
      }),
    );
    expect(await eventsSince(start)).toEqual([
      { type: 'practitioner_availabilities.created', entity_id: open.id },
      { type: 'practitioner_availabilities.created', entity_id: lunch.id },
    ]);
    expect(await auditOf('practitioner_availabilities', open.id)).toEqual([
      { action: 'created', actor_type: 'user', actor_id: ownerId },
    ]);

    // Rules of the grid: overlapping working hours, an end before the start, a location they do not work at.
    const overlap = await owner.mutate('practice.hours.create', {
      practitioner_id: p.id,
      location_id: site.id,
      type: 'open',
      day: '1',
      starts_at: '12:00',
      ends_at: '17:00',
    });
    expect(overlap.status).toBe(422);
    expect(errorsOf(overlap).starts_at[0]).toMatch(/overlaps the working hours 09:00–13:00 on Monday/);
    const backwards = await owner.mutate('practice.hours.create', {
      practitioner_id: p.id,
      location_id: site.id,
      type: 'open',
      day: '2',
      starts_at: '17:00',
      ends_at: '09:00',
    });
    expect(Object.keys(errorsOf(backwards))).toEqual(['ends_at']);
    const nowhere = await owner.mutate('practice.hours.create', {
      practitioner_id: p.id,
      location_id: foreignSite.id,
      type: 'open',
      day: '2',
      starts_at: '09:00',
      ends_at: '12:00',
    });
    expect(portalCode(nowhere)).toBe('location_not_found');

    const listed = await ok(owner.query('practice.hours.list', { practitioner_id: p.id, location_id: site.id }));
    expect(listed.data.map((r: { type: string; starts_at: string }) => `${r.type} ${r.starts_at}`)).toEqual([
      'open 09:00',
      'break 11:00',
    ]);

    // Two Mondays ahead, so the slots are in the future whatever today is.
    const day = new Date(Date.now() + 8 * 86_400_000);
    day.setUTCDate(day.getUTCDate() + ((8 - day.getUTCDay()) % 7));
    const monday = day.toISOString().slice(0, 10);
    const slots = async () => {
      const res = await t.api.get(
        `/availability?location_id=${site.id}&appointment_type_id=${type.id}&from=${monday}&to=${monday}`,
      );
      expect(res.status, res.text).toBe(200);
      return res.body.data.map((s: { starts_at: string }) => s.starts_at.slice(11, 16));
    };
    expect(await slots()).toEqual(['09:00', '10:00', '12:00']);
    // A change of hours is seen at once (the availability cache is keyed on the diaries it moves).
    await ok(owner.mutate('practice.hours.update', { id: open.id, ends_at: '14:00' }));
    expect(await slots()).toEqual(['09:00', '10:00', '12:00', '13:00']);
    await ok(owner.mutate('practice.hours.delete', { id: lunch.id }));
    expect(await slots()).toEqual(['09:00', '10:00', '11:00', '12:00', '13:00']);
    // A new practitioner who offers the type there joins the cached search at once (it plans again), and leaves it when deleted.
    const cal = await ok(
      owner.mutate('practice.practitioners.create', {
        first_name: 'Cal',
        last_name: 'Hours',
        location_ids: [site.id],
        appointment_type_ids: [type.id],
      }),
    );
    await ok(
      owner.mutate('practice.hours.create', {
        practitioner_id: cal.id,
        location_id: site.id,
        type: 'open',
        day: '1',
        starts_at: '15:00',
        ends_at: '16:00',
      }),
    );
    expect(await slots()).toEqual(['09:00', '10:00', '11:00', '12:00', '13:00', '15:00']);
    expect((await owner.mutate('practice.practitioners.delete', { id: cal.id })).status).toBe(200);
    expect(await slots()).toEqual(['09:00', '10:00', '11:00', '12:00', '13:00']);

    // The portal's own preview is the same search.
    const preview = await ok(
      owner.query('practice.hours.slots', {
        practitioner_id: p.id,
        location_id: site.id,
        appointment_type_id: type.id,
      }),
    );
    expect(preview.meta.from <= preview.meta.to).toBe(true);

    // Deleting the practitioner takes their hours with them, each announced.
    const before = await lastEventId();
    expect((await owner.mutate('practice.practitioners.delete', { id: p.id })).status).toBe(200);
    expect((await eventsSince(before)).map((e) => e.type)).toEqual([
      'practitioner_availabilities.deleted',
      'practitioners.deleted',
    ]);
    expect(
      (
        await db()
          .select({ n: count() })
          .from(practitionerAvailabilities)
          .where(eq(practitionerAvailabilities.practitioner_id, p.id))
      )[0].n,
    ).toBe(0);
  });

  test('a practitioner with appointments is not deleted, and neither is their type: 409 with what to do instead', async () => {
    const site = await ok(owner.mutate('practice.locations.create', { name: 'Booked site' }));
    const type = await ok(
      owner.mutate('practice.appointmentTypes.create', { name: 'Booked type', duration_minutes: 30 }),
    );
    const p = await ok(
      owner.mutate('practice.practitioners.create', {
        first_name: 'Cy',
        last_name: 'Booked',
        location_ids: [site.id],
        appointment_type_ids: [type.id],
      }),
    );
    await ok(
      owner.mutate('practice.hours.create', {
        practitioner_id: p.id,
        location_id: site.id,
        type: 'open',
        day: '3',
        starts_at: '09:00',
        ends_at: '17:00',
      }),
    );
    const patient = await t.api.post('/patients', { body: { first_name: 'Pat', last_name: 'Ient' } });
    const day = new Date(Date.now() + 8 * 86_400_000);
    day.setUTCDate(day.getUTCDate() + ((10 - day.getUTCDay()) % 7));
    const booked = await t.api.post('/appointments', {
      body: {
        patient_id: patient.body.data.id,
        practitioner_id: p.id,
        location_id: site.id,
        appointment_type_id: type.id,
        starts_at: `${day.toISOString().slice(0, 10)}T10:00:00`,
      },
    });
    expect(booked.status, booked.text).toBe(201);

    const refusedP = await owner.mutate('practice.practitioners.delete', { id: p.id });
    expect(refusedP.status).toBe(409);
    expect(refusedP.body.error.message).toMatch(/Cy Booked is in use \(1 appointment\).*inactive/);
    const refusedT = await owner.mutate('practice.appointmentTypes.delete', { id: type.id });
    expect(refusedT.body.error.message).toMatch(
      /Booked type is in use \(1 appointment and 1 practitioner offering it\).*inactive/,
    );
    const refusedL = await owner.mutate('practice.locations.delete', { id: site.id });
    expect(refusedL.body.error.message).toMatch(/1 appointment, 1 row of opening hours and 1 practitioner/);
    expect(await ok(owner.mutate('practice.practitioners.update', { id: p.id, active: false }))).toMatchObject({
      active: false,
    });
  });
});

describe('tenant walls', () => {
  test("another clinic's records are not found, and its writes do not reach this clinic", async () => {
    const other = await newClinic(t.server);
    const { portal: elsewhere } = await signedIn(t.server, other, 'owner');
    const theirs = await ok(elsewhere.mutate('practice.locations.create', { name: 'Theirs' }));
    const type = await ok(
      elsewhere.mutate('practice.appointmentTypes.create', { name: 'Theirs', duration_minutes: 30 }),
    );
    const start = await lastEventId();
    for (const [proc, input] of [
      ['practice.locations.update', { id: theirs.id, name: 'Mine now' }],
      ['practice.locations.delete', { id: theirs.id }],
      ['practice.appointmentTypes.update', { id: type.id, active: false }],
      ['practice.appointmentTypes.delete', { id: type.id }],
    ] as const) {
      const res = await owner.mutate(proc, input);
      expect(res.status, proc).toBe(404);
      expect(portalCode(res)).toBe('not_found');
    }
    const mine = await ok(owner.query('practice.locations.list'));
    expect(mine.data.map((l: { id: number }) => l.id)).not.toContain(theirs.id);
    expect(await lastEventId()).toBe(start);
    expect(
      (await db().select({ name: locations.name }).from(locations).where(eq(locations.id, theirs.id)))[0].name,
    ).toBe('Theirs');
  });
});
