import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { appointments, auditLog, deletedEntities, resources } from '../../db/schema';
import { client, eventTypes, expectError, newClinic, useClinic } from './helpers';
import { addDays } from '../values/wall-time';
import { calendarFixture, D, DST, SUMMER_MONDAY, type Calendar } from './scheduling-fixture';

const t = useClinic();
const { api } = t;
let cal: Calendar;
let patientId: number;

beforeAll(async () => {
  cal = await calendarFixture(t.server, t.clinic);
  patientId = (
    await api.post('/patients', { body: { first_name: 'Elizabeth', last_name: 'Chen', preferred_name: 'Liz' } })
  ).body.data.id;
});

/** A Monday-to-Friday booking body for practitioner One at Site A. */
const body = (starts_at: string, extra: Record<string, unknown> = {}) => ({
  patient_id: patientId,
  practitioner_id: cal.p1,
  location_id: cal.siteA,
  appointment_type_id: cal.followUp,
  starts_at,
  ...extra,
});
const book = (starts_at: string, extra: Record<string, unknown> = {}) =>
  api.post('/appointments', { body: body(starts_at, extra) });

const appointmentEvents = (id: number) => eventTypes(t.server, t.clinic, 'appointments', id);

const liveRows = async (starts_at: string) =>
  t.server.app.db.db
    .select({ id: appointments.id })
    .from(appointments)
    .where(
      and(
        eq(appointments.account_id, t.clinic.account.id),
        eq(appointments.starts_at, starts_at),
        eq(appointments.status, 'booked'),
      ),
    )
    .orderBy(asc(appointments.id));

describe('POST /appointments', () => {
  it('books a free slot: wall times, the UTC instants, the embedded patient, one event and the creator', async () => {
    const res = await book(`${D(21)}T09:00:00`, { notes: 'Left knee', metadata: { source: 'web' } });
    expect(res.status).toBe(201);
    const a = res.body.data;
    expect(a).toMatchObject({
      patient_id: patientId,
      practitioner_id: cal.p1,
      location_id: cal.siteA,
      appointment_type_id: cal.followUp,
      resource_id: null,
      starts_at: `${D(21)}T09:00:00`,
      ends_at: `${D(21)}T09:30:00`,
      starts_at_utc: `${D(21)}T09:00:00.000Z`,
      ends_at_utc: `${D(21)}T09:30:00.000Z`,
      status: 'booked',
      notes: 'Left knee',
      allow_clash: false,
      group_master_id: null,
      cancellation_reason: null,
      metadata: { source: 'web' },
      patient: { id: patientId, first_name: 'Elizabeth', last_name: 'Chen', preferred_name: 'Liz', name: 'Liz Chen' },
    });
    expect((await api.get(`/appointments/${a.id}`)).body.data).toEqual(a);
    expect(await appointmentEvents(a.id)).toEqual(['appointments.created']);
    const [audit] = await t.server.app.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'appointments'), eq(auditLog.entity_id, a.id)));
    expect(audit).toMatchObject({ action: 'created', actor_type: 'api_key', actor_name: 'Test integration' });
  });

  it('a summer booking reads back at UTC+1 (BST); ends_at can be sent', async () => {
    const res = await book(`${SUMMER_MONDAY}T09:00:00`, { ends_at: `${SUMMER_MONDAY}T09:50:00` });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      ends_at: `${SUMMER_MONDAY}T09:50:00`,
      starts_at_utc: `${SUMMER_MONDAY}T08:00:00.000Z`,
      ends_at_utc: `${SUMMER_MONDAY}T08:50:00.000Z`,
    });
  });

  it('across a DST change: a booking keeps its real length, and a wall time in the repeated hour is its later pass', async () => {
    // London springs forward at 01:00 GMT: 00:30 GMT plus a real hour ends at 02:30 BST (01:30 UTC).
    const spring = await book(`${DST.londonSpring}T00:30:00`, { appointment_type_id: cal.assessment });
    expect(spring.status).toBe(201);
    expect(spring.body.data).toMatchObject({
      starts_at: `${DST.londonSpring}T00:30:00`,
      ends_at: `${DST.londonSpring}T02:30:00`,
      starts_at_utc: `${DST.londonSpring}T00:30:00.000Z`,
      ends_at_utc: `${DST.londonSpring}T01:30:00.000Z`,
    });
    // In October 01:00-02:00 happens twice (BST, then GMT): 01:30 means the later pass, 01:30 UTC.
    const autumn = await book(`${DST.londonAutumn}T01:30:00`);
    expect(autumn.status).toBe(201);
    expect(autumn.body.data).toMatchObject({
      starts_at: `${DST.londonAutumn}T01:30:00`,
      starts_at_utc: `${DST.londonAutumn}T01:30:00.000Z`,
      ends_at_utc: `${DST.londonAutumn}T02:00:00.000Z`,
    });
    // An hour from 00:30 BST ends at 01:30 BST, the first pass of the repeated hour: its instants keep the
    // real hour even though its end reads as an ambiguous wall time.
    const across = await book(`${DST.londonAutumn}T00:30:00`, {
      appointment_type_id: cal.assessment,
      allow_clash: true,
    });
    expect(across.status).toBe(201);
    const { starts_at_utc, ends_at_utc } = across.body.data;
    expect(Date.parse(ends_at_utc) - Date.parse(starts_at_utc)).toBe(3_600_000);
    expect(ends_at_utc).toBe(`${DST.londonAutumn}T00:30:00.000Z`);
    expect(starts_at_utc).toBe(`${addDays(DST.londonAutumn, -1)}T23:30:00.000Z`);
  });

  it('missing references are the matching 422 codes, and nothing is stored', async () => {
    const before = (await api.get('/appointments?page_size=1')).body.meta.total;
    expectError(await book(`${D(22)}T09:00:00`, { patient_id: 999999 }), 422, 'patient_not_found');
    expectError(await book(`${D(22)}T09:00:00`, { practitioner_id: 999999 }), 422, 'practitioner_not_found');
    expectError(await book(`${D(22)}T09:00:00`, { location_id: 999999 }), 422, 'location_not_found');
    expectError(await book(`${D(22)}T09:00:00`, { appointment_type_id: 999999 }), 422, 'appointment_type_not_found');
    expect((await api.get('/appointments?page_size=1')).body.meta.total).toBe(before);
  });

  it('a resource missing, inactive or at another location is 422 resource_unavailable', async () => {
    for (const resource_id of [999999, cal.closedRoom, cal.roomB]) {
      const res = await book(`${D(22)}T09:00:00`, { resource_id });
      expectError(res, 422, 'resource_unavailable');
      expect(Object.keys(res.body.errors)).toEqual(['resource_id']);
    }
  });

  it('bad times are 422 validation_failed naming the attribute', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [body(`${D(22)}T09:00:00Z`), 'starts_at'],
      [body(`${D(22)}T09:00:00+01:00`), 'starts_at'],
      [body(`${D(22)} 09:00:00`), 'starts_at'],
      [body('2027-02-30T09:00:00'), 'starts_at'],
      [body(`${D(22)}T09:00:00`, { ends_at: `${D(22)}T08:30:00` }), 'ends_at'],
      [body(`${D(22)}T09:00:00`, { ends_at: `${D(22)}T09:00:00` }), 'ends_at'],
      [body(`${D(22)}T09:00:00`, { ends_at: `${D(24)}T09:00:00` }), 'ends_at'],
      // The lost hour: clocks go forward from 01:00 to 02:00 in London.
      [body(`${DST.londonSpring}T01:30:00`, { appointment_type_id: cal.assessment }), 'starts_at'],
      [body(`${D(22)}T09:00:00`, { colour: 'red' }), 'colour'],
      [{ ...body(`${D(22)}T09:00:00`), practitioner_id: undefined }, 'practitioner_id'],
    ];
    for (const [b, attribute] of cases) {
      const res = await api.post('/appointments', { body: b });
      expectError(res, 422, 'validation_failed');
      expect(Object.keys(res.body.errors), JSON.stringify(b)).toContain(attribute);
    }
  });

  it('a type the practitioner does not offer there, or an inactive type, is 422 invalid_input', async () => {
    expectError(await book(`${D(22)}T09:00:00`, { practitioner_id: cal.p4 }), 422, 'invalid_input');
    expectError(await book(`${D(22)}T09:00:00`, { practitioner_id: cal.p3 }), 422, 'invalid_input');
    expectError(await book(`${D(22)}T09:00:00`, { appointment_type_id: cal.retired }), 422, 'invalid_input');
  });

  it('a slot the diary cannot take is 409 slot_unavailable; allow_clash overbooks deliberately', async () => {
    expectError(await book(`${D(21)}T08:00:00`), 409, 'slot_unavailable'); // before opening
    expectError(await book(`${D(21)}T12:15:00`), 409, 'slot_unavailable'); // lunch break
    expectError(await book(`${D(21)}T16:45:00`), 409, 'slot_unavailable'); // runs past closing
    expectError(await book(`${D(1)}T10:00:00`), 409, 'slot_unavailable'); // blockout
    expectError(await book(`${D(2)}T10:00:00`), 409, 'slot_unavailable'); // site closed
    expectError(await book(`${D(21)}T09:15:00`), 409, 'slot_unavailable'); // overlaps the 09:00 booking
    const over = await book(`${D(21)}T09:15:00`, { allow_clash: true });
    expect(over.status).toBe(201);
    expect(over.body.data.allow_clash).toBe(true);
    expect((await book(`${D(21)}T07:00:00`, { allow_clash: true })).status).toBe(201);
  });

  it('a resource is never double-booked, and a type that needs one gets a free one', async () => {
    const first = await book(`${D(23)}T09:00:00`, { appointment_type_id: cal.massage });
    expect(first.status).toBe(201);
    expect(first.body.data.resource_id).toBe(cal.tableA);
    // Two (front desk) cannot take Table A at 09:00 for a follow-up.
    expectError(
      await book(`${D(23)}T09:00:00`, { practitioner_id: cal.p2, resource_id: cal.tableA }),
      409,
      'slot_unavailable',
    );
    const other = await book(`${D(23)}T09:00:00`, { practitioner_id: cal.p2, resource_id: cal.tableB });
    expect(other.status).toBe(201);
  });

  it('a type that needs a resource at a location with no active one is 422 resource_unavailable, even with allow_clash', async () => {
    const other = await newClinic(t.server);
    const otherCal = await calendarFixture(t.server, other);
    await t.server.app.db.transaction((tx) =>
      tx.update(resources).set({ status: 'inactive' }).where(eq(resources.account_id, other.account.id)),
    );
    const otherApi = client(t.server, other);
    const pid = (await otherApi.post('/patients', { body: { first_name: 'No', last_name: 'Table' } })).body.data.id;
    const massage = {
      patient_id: pid,
      practitioner_id: otherCal.p1,
      location_id: otherCal.siteA,
      appointment_type_id: otherCal.massage,
      starts_at: `${D(23)}T09:00:00`,
    };
    for (const allow_clash of [false, true]) {
      const res = await otherApi.post('/appointments', { body: { ...massage, allow_clash } });
      expectError(res, 422, 'resource_unavailable');
      expect(Object.keys(res.body.errors)).toEqual(['resource_id']);
    }
  });

  it('group bookings join the session while places remain, then 409 group_full', async () => {
    const first = await book(`${D(24)}T10:00:00`, { appointment_type_id: cal.pilates });
    expect(first.status).toBe(201);
    expect(first.body.data.group_master_id).toBeNull();
    const second = await book(`${D(24)}T10:00:00`, {
      appointment_type_id: cal.pilates,
      group_master_id: first.body.data.id,
    });
    expect(second.status).toBe(201);
    expect(second.body.data.group_master_id).toBe(first.body.data.id);
    expectError(
      await book(`${D(24)}T10:00:00`, { appointment_type_id: cal.pilates, group_master_id: first.body.data.id }),
      409,
      'group_full',
    );
    expectError(await book(`${D(24)}T10:00:00`, { appointment_type_id: cal.pilates }), 409, 'group_full');
    // A session at another time cannot be named.
    expectError(
      await book(`${D(24)}T11:00:00`, { appointment_type_id: cal.pilates, group_master_id: first.body.data.id }),
      422,
      'invalid_input',
    );
    // Without group_master_id, a booking at a running session's time joins it.
    const a = await book(`${D(24)}T14:00:00`, { appointment_type_id: cal.pilates });
    const b = await book(`${D(24)}T14:00:00`, { appointment_type_id: cal.pilates });
    expect(b.body.data.group_master_id).toBe(a.body.data.id);
  });

  it('honours Idempotency-Key: a retry replays the booking instead of clashing', async () => {
    const headers = { 'idempotency-key': `book-${Date.now()}` };
    const first = await api.post('/appointments', { body: body(`${D(25)}T09:00:00`), headers });
    expect(first.status).toBe(201);
    const retry = await api.post('/appointments', { body: body(`${D(25)}T09:00:00`), headers });
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.data.id).toBe(first.body.data.id);
    expect(await liveRows(`${D(25)}T09:00:00`)).toHaveLength(1);
  });

  it('never double-books: concurrent requests for one slot give exactly one 201', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => book(`${D(28)}T11:00:00`)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, 'slot_unavailable');
    expect(await liveRows(`${D(28)}T11:00:00`)).toHaveLength(1);
  });

  it('a read-only key cannot book (403 key_read_only)', async () => {
    expectError(
      await api.post('/appointments', { body: body(`${D(29)}T09:00:00`), key: t.clinic.readOnlyKey }),
      403,
      'key_read_only',
    );
  });
});

describe('listing appointments', () => {
  it('filters by practitioner, status and starts_at range, sorted by start', async () => {
    const res = await api.get(
      `/appointments?practitioner_id=${cal.p1}&status=booked&starts_at=between:${D(21)}T00:00:00,${D(21)}T23:59:59&sort=starts_at`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.map((a: { starts_at: string }) => a.starts_at)).toEqual([
      `${D(21)}T07:00:00`,
      `${D(21)}T09:00:00`,
      `${D(21)}T09:15:00`,
    ]);
    expect(res.body.data[0].patient.name).toBe('Liz Chen');
    const byPatient = await api.get(
      `/appointments?patient_id=${patientId}&location_id=${cal.siteA}&appointment_type_id=${cal.pilates}&page_size=100`,
    );
    expect(byPatient.body.data).toHaveLength(4);
    expectError(await api.get(`/appointments?starts_at=gt:${D(21)}T00:00:00Z`), 422, 'validation_failed');
    expectError(await api.get('/appointments?status=gone'), 422, 'validation_failed');
    expectError(await api.get('/appointments?notes=x'), 422, 'validation_failed');
  });
});

describe('appointment lifecycle', () => {
  it('cancel with a reason frees the slot; cancelling twice is 409 appointment_rule; reinstate books it again', async () => {
    const a = (await book(`${D(49)}T09:00:00`)).body.data;
    const cancelled = await api.post(`/appointments/${a.id}/cancel`, { body: { reason: 'Feeling better' } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      status: 'cancelled',
      cancellation_reason: 'Feeling better',
      cancelled_at: expect.any(String),
    });
    expectError(await api.post(`/appointments/${a.id}/cancel`, { body: {} }), 409, 'appointment_rule');
    const reinstated = await api.post(`/appointments/${a.id}/reinstate`);
    expect(reinstated.status).toBe(200);
    expect(reinstated.body.data).toMatchObject({ status: 'booked', cancellation_reason: null, cancelled_at: null });
    expectError(await api.post(`/appointments/${a.id}/reinstate`), 409, 'appointment_rule');
    expect(await appointmentEvents(a.id)).toEqual([
      'appointments.created',
      'appointments.cancelled',
      'appointments.reinstated',
    ]);
  });

  it('concurrent cancels of one appointment: one succeeds, the others are 409 appointment_rule, one event', async () => {
    const a = (await book(`${D(49)}T16:00:00`)).body.data;
    const results = await Promise.all(Array.from({ length: 6 }, () => api.post(`/appointments/${a.id}/cancel`)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expectError(r, 409, 'appointment_rule');
    expect(await appointmentEvents(a.id)).toEqual(['appointments.created', 'appointments.cancelled']);
  });

  it('reinstating a slot given away meanwhile is 409 slot_unavailable', async () => {
    const a = (await book(`${D(49)}T10:00:00`)).body.data;
    await api.post(`/appointments/${a.id}/cancel`);
    expect((await book(`${D(49)}T10:00:00`)).status).toBe(201);
    expectError(await api.post(`/appointments/${a.id}/reinstate`), 409, 'slot_unavailable');
    expect((await api.get(`/appointments/${a.id}`)).body.data.status).toBe('cancelled');
  });

  it('arrive: not before the day; final once done (no un-arrive, no cancel, no miss)', async () => {
    expectError(
      await api.post(`/appointments/${(await book(`${D(49)}T11:00:00`)).body.data.id}/arrive`),
      409,
      'appointment_rule',
    );
    // A past appointment (a Monday last month) can be arrived.
    const lastMonday = new Date(Date.now() - 28 * 86_400_000);
    lastMonday.setUTCDate(lastMonday.getUTCDate() - ((lastMonday.getUTCDay() + 6) % 7));
    const day = lastMonday.toISOString().slice(0, 10);
    const past = (await book(`${day}T14:00:00`)).body.data;
    const arrived = await api.post(`/appointments/${past.id}/arrive`);
    expect(arrived.status).toBe(200);
    expect(arrived.body.data).toMatchObject({ status: 'arrived', arrived_at: expect.any(String) });
    for (const action of ['miss', 'cancel', 'arrive', 'reinstate'])
      expectError(await api.post(`/appointments/${past.id}/${action}`), 409, 'appointment_rule');
    expectError(
      await api.patch(`/appointments/${past.id}`, { body: { starts_at: `${day}T15:00:00` } }),
      409,
      'appointment_rule',
    );
    // Notes can still change.
    expect((await api.patch(`/appointments/${past.id}`, { body: { notes: 'Arrived late' } })).status).toBe(200);

    const missed = (await book(`${day}T15:00:00`)).body.data;
    expect((await api.post(`/appointments/${missed.id}/miss`)).body.data.status).toBe('missed');
    expectError(await api.post(`/appointments/${missed.id}/arrive`), 409, 'appointment_rule');
    expect((await api.post(`/appointments/${missed.id}/reinstate`)).body.data.status).toBe('booked');
    expect(await appointmentEvents(missed.id)).toEqual([
      'appointments.created',
      'appointments.missed',
      'appointments.reinstated',
    ]);
  });

  it('miss: not before it starts', async () => {
    const a = (await book(`${D(49)}T13:00:00`)).body.data;
    expectError(await api.post(`/appointments/${a.id}/miss`), 409, 'appointment_rule');
  });

  it('lifecycle actions refuse unknown bodies and unknown ids', async () => {
    const a = (await book(`${D(49)}T13:30:00`)).body.data;
    expectError(
      await api.post(`/appointments/${a.id}/cancel`, { body: { reason: 'x'.repeat(501) } }),
      422,
      'validation_failed',
    );
    expectError(await api.post(`/appointments/${a.id}/arrive`, { body: { when: 'now' } }), 422, 'validation_failed');
    expectError(await api.post('/appointments/999999/cancel'), 404, 'not_found');
  });
});

describe('PATCH and DELETE /appointments/{id}', () => {
  it('rescheduling re-checks the diary, keeps the length and announces appointments.rescheduled', async () => {
    const a = (await book(`${D(50)}T09:00:00`, { ends_at: `${D(50)}T09:20:00` })).body.data;
    const blocker = (await book(`${D(50)}T14:00:00`)).body.data;
    expectError(
      await api.patch(`/appointments/${a.id}`, { body: { starts_at: `${D(50)}T14:00:00` } }),
      409,
      'slot_unavailable',
    );
    expectError(
      await api.patch(`/appointments/${a.id}`, { body: { starts_at: `${D(50)}T12:30:00` } }),
      409,
      'slot_unavailable',
    );
    const moved = await api.patch(`/appointments/${a.id}`, { body: { starts_at: `${D(50)}T15:00:00` } });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ starts_at: `${D(50)}T15:00:00`, ends_at: `${D(50)}T15:20:00` });
    // Moving onto its own time is not a clash with itself.
    expect((await api.patch(`/appointments/${a.id}`, { body: { ends_at: `${D(50)}T15:30:00` } })).status).toBe(200);
    const noted = await api.patch(`/appointments/${a.id}`, { body: { notes: 'Bring scans', metadata: { room: 2 } } });
    expect(noted.body.data).toMatchObject({ notes: 'Bring scans', metadata: { room: 2 } });
    expect(await appointmentEvents(a.id)).toEqual([
      'appointments.created',
      'appointments.rescheduled',
      'appointments.rescheduled',
      'appointments.updated',
    ]);
    expectError(
      await api.patch(`/appointments/${a.id}`, { body: { group_master_id: blocker.id } }),
      422,
      'invalid_input',
    );
    expectError(
      await api.patch(`/appointments/${a.id}`, { body: { starts_at: `${D(50)}T15:00:00+00:00` } }),
      422,
      'validation_failed',
    );
    expectError(await api.patch(`/appointments/${a.id}`, { body: { patient_id: 999999 } }), 422, 'patient_not_found');
    expect(
      (await api.patch(`/appointments/${a.id}`, { body: { starts_at: `${D(50)}T14:00:00`, allow_clash: true } }))
        .status,
    ).toBe(200);
  });

  it('a cancelled appointment cannot be rescheduled (409 appointment_rule)', async () => {
    const a = (await book(`${D(51)}T09:00:00`)).body.data;
    await api.post(`/appointments/${a.id}/cancel`);
    expectError(
      await api.patch(`/appointments/${a.id}`, { body: { starts_at: `${D(51)}T10:00:00` } }),
      409,
      'appointment_rule',
    );
  });

  it('DELETE removes it: 204, then 404, listed in deleted_entities, announced once, and its slot is free', async () => {
    const a = (await book(`${D(52)}T09:00:00`)).body.data;
    const res = await api.delete(`/appointments/${a.id}`);
    expect(res.status).toBe(204);
    expectError(await api.get(`/appointments/${a.id}`), 404, 'not_found');
    expectError(await api.delete(`/appointments/${a.id}`), 404, 'not_found');
    expectError(await api.post(`/appointments/${a.id}/cancel`), 404, 'not_found');
    const gone = await t.server.app.db.db
      .select()
      .from(deletedEntities)
      .where(and(eq(deletedEntities.entity, 'appointments'), eq(deletedEntities.entity_id, a.id)));
    expect(gone).toHaveLength(1);
    expect(await appointmentEvents(a.id)).toEqual(['appointments.created', 'appointments.deleted']);
    expect((await book(`${D(52)}T09:00:00`)).status).toBe(201);
  });

  it('PUT is 405', async () => {
    const res = await api.put('/appointments/1', { body: {} });
    expect(res.status).toBe(405);
  });
});
