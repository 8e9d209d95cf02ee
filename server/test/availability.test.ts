import { beforeAll, describe, expect, it } from 'vitest';
import { client, expectError, newClinic, useClinic } from './helpers';
import { practitionerAvailabilities } from '../../db/schema';
import { addDays, clockFor, weekday } from '../values/wall-time';
import { calendarFixture, D, DST, type Calendar } from './scheduling-fixture';

const t = useClinic();
const { api } = t;
let cal: Calendar;
let patientId: number;

beforeAll(async () => {
  cal = await calendarFixture(t.server, t.clinic);
  patientId = (await api.post('/patients', { body: { first_name: 'Ada', last_name: 'Slot' } })).body.data.id;
});

type Slot = {
  starts_at: string;
  ends_at: string;
  practitioner_id: number;
  resource_id: number | null;
  places_left: number | null;
};
const search = (q: Record<string, string | number>) =>
  api.get(`/availability?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`);
const times = (slots: Slot[]) => slots.map((s) => s.starts_at.slice(11, 16));
/** The 30-minute grid of a day opened 00:00-23:59 for p1, less the fixture's weekday break. */
const dayGrid = (day: string) => {
  const onBreak = (m: number) => weekday(day) >= 1 && weekday(day) <= 5 && m + 30 > 12 * 60 && m < 13 * 60;
  // Both stretches start on the half hour, so the grid is every half hour whose slot misses the break.
  const starts = Array.from({ length: 47 }, (_, i) => i * 30).filter((m) => !onBreak(m));
  return starts.map(
    (m) => `${day}T${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00`,
  );
};
const perDay = (slots: Slot[]) =>
  slots.reduce<Record<string, number>>(
    (acc, s) => ({ ...acc, [s.starts_at.slice(0, 10)]: (acc[s.starts_at.slice(0, 10)] ?? 0) + 1 }),
    {},
  );

describe('GET /availability', () => {
  it('front-desk view: every practitioner offering the type, ordered by time then practitioner', async () => {
    const res = await search({
      location_id: cal.siteA,
      appointment_type_id: cal.followUp,
      from: `${D(0)}`,
      to: `${D(0)}`,
    });
    expect(res.status).toBe(200);
    const slots: Slot[] = res.body.data;
    // One: 09:00-12:00 and 13:00-17:00 (lunch break) in 30-minute slots; Two: 09:00-12:00. Three is inactive, Four offers nothing.
    expect(slots).toHaveLength(14 + 6);
    expect(slots.slice(0, 3)).toEqual([
      {
        starts_at: `${D(0)}T09:00:00`,
        ends_at: `${D(0)}T09:30:00`,
        practitioner_id: cal.p1,
        location_id: cal.siteA,
        appointment_type_id: cal.followUp,
        resource_id: null,
        places_left: null,
      },
      {
        starts_at: `${D(0)}T09:00:00`,
        ends_at: `${D(0)}T09:30:00`,
        practitioner_id: cal.p2,
        location_id: cal.siteA,
        appointment_type_id: cal.followUp,
        resource_id: null,
        places_left: null,
      },
      {
        starts_at: `${D(0)}T09:30:00`,
        ends_at: `${D(0)}T10:00:00`,
        practitioner_id: cal.p1,
        location_id: cal.siteA,
        appointment_type_id: cal.followUp,
        resource_id: null,
        places_left: null,
      },
    ]);
    expect(times(slots.filter((s) => s.practitioner_id === cal.p1))).toEqual([
      '09:00',
      '09:30',
      '10:00',
      '10:30',
      '11:00',
      '11:30',
      '13:00',
      '13:30',
      '14:00',
      '14:30',
      '15:00',
      '15:30',
      '16:00',
      '16:30',
    ]);
    expect(res.body.meta).toEqual({
      from: `${D(0)}`,
      to: `${D(0)}`,
      timezone: 'Europe/London',
      total: 20,
      unavailable_dates: [],
    });
  });

  it('blockouts, breaks, site closures and custom availability shape a week; closed days are unavailable_dates', async () => {
    const res = await search({
      location_id: cal.siteA,
      appointment_type_id: cal.followUp,
      practitioner_id: cal.p1,
      from: `${D(0)}`,
      to: `${D(6)}`,
    });
    expect(res.status).toBe(200);
    expect(perDay(res.body.data)).toEqual({
      [D(0)]: 14,
      [D(1)]: 12, // blockout 10:00-11:00
      [D(3)]: 14, // a blockout of one resource only leaves the practitioner working
      [D(4)]: 8, // a span_all_columns blockout with a resource blocks the whole lane from 14:00
      [D(5)]: 4, // Saturday: custom availability 10:00-12:00
      [D(6)]: 12, // Sunday: night hours 00:00-05:00 and custom 10:00-11:00
    });
    expect(times(res.body.data.filter((s: Slot) => s.starts_at.startsWith(`${D(1)}`)))).toEqual([
      '09:00',
      '09:30',
      '11:00',
      '11:30',
      '13:00',
      '13:30',
      '14:00',
      '14:30',
      '15:00',
      '15:30',
      '16:00',
      '16:30',
    ]);
    expect(res.body.meta.unavailable_dates).toEqual([`${D(2)}`]);
  });

  it('online view: only online windows and online-bookable practitioners', async () => {
    const all = await search({
      location_id: cal.siteA,
      appointment_type_id: cal.followUp,
      from: `${D(0)}`,
      to: `${D(6)}`,
      visibility: 'online',
    });
    expect(all.status).toBe(200);
    expect(new Set(all.body.data.map((s: Slot) => s.practitioner_id))).toEqual(new Set([cal.p1]));
    // The Sunday custom window is not offered online: only the night hours remain.
    expect(all.body.data.filter((s: Slot) => s.starts_at.startsWith(`${D(6)}`))).toHaveLength(10);
  });

  it('refuses online search for what is not bookable online (422 not_online_bookable)', async () => {
    const base = { appointment_type_id: cal.followUp, from: `${D(0)}`, to: `${D(0)}`, visibility: 'online' };
    const site = await search({ ...base, location_id: cal.siteB });
    expectError(site, 422, 'not_online_bookable');
    expect(Object.keys(site.body.errors)).toEqual(['location_id']);
    const type = await search({ ...base, location_id: cal.siteA, appointment_type_id: cal.phoneOnly });
    expectError(type, 422, 'not_online_bookable');
    expect(Object.keys(type.body.errors)).toEqual(['appointment_type_id']);
    const who = await search({ ...base, location_id: cal.siteA, practitioner_id: cal.p2 });
    expectError(who, 422, 'not_online_bookable');
    expect(Object.keys(who.body.errors)).toEqual(['practitioner_id']);
    // The front-desk view of the same is fine.
    expect((await search({ ...base, visibility: 'all', location_id: cal.siteA, practitioner_id: cal.p2 })).status).toBe(
      200,
    );
  });

  it('a type nobody offers there, or offered without working hours there, is 422 availability_not_configured', async () => {
    const nobody = await search({ location_id: cal.siteA, appointment_type_id: cal.unassigned });
    expectError(nobody, 422, 'availability_not_configured');
    expect(Object.keys(nobody.body.errors)).toEqual(['appointment_type_id']);
    // Two offers follow-ups at Site B but has no hours there.
    const noHours = await search({ location_id: cal.siteB, appointment_type_id: cal.followUp });
    expectError(noHours, 422, 'availability_not_configured');
    expect(Object.keys(noHours.body.errors)).toEqual(['location_id']);
  });

  it('unknown ids are the matching 422 *_not_found; other bad input is 422 validation_failed naming the parameter', async () => {
    expectError(await search({ location_id: 999999, appointment_type_id: cal.followUp }), 422, 'location_not_found');
    expectError(
      await search({ location_id: cal.siteA, appointment_type_id: 999999 }),
      422,
      'appointment_type_not_found',
    );
    expectError(
      await search({ location_id: cal.siteA, appointment_type_id: cal.followUp, practitioner_id: 999999 }),
      422,
      'practitioner_not_found',
    );
    expectError(await search({ location_id: cal.siteA, appointment_type_id: cal.retired }), 422, 'invalid_input');
    expectError(
      await search({ location_id: cal.siteA, appointment_type_id: cal.followUp, practitioner_id: cal.p4 }),
      422,
      'invalid_input',
    );
    const cases: [Record<string, string | number>, string][] = [
      [{ appointment_type_id: cal.followUp }, 'location_id'],
      [{ location_id: cal.siteA, appointment_type_id: cal.followUp, from: `${D(-10)}`, to: `${D(21)}` }, 'to'],
      [{ location_id: cal.siteA, appointment_type_id: cal.followUp, from: `${D(-1)}`, to: `${D(-2)}` }, 'to'],
      [{ location_id: cal.siteA, appointment_type_id: cal.followUp, from: '2027-13-01' }, 'from'],
      [{ location_id: cal.siteA, appointment_type_id: cal.followUp, visibility: 'patients' }, 'visibility'],
      [{ location_id: cal.siteA, appointment_type_id: cal.followUp, limit: 0 }, 'limit'],
      [{ location_id: 'abc', appointment_type_id: cal.followUp }, 'location_id'],
      [{ location_id: cal.siteA, appointment_type_id: cal.followUp, colour: 'red' }, 'colour'],
    ];
    for (const [q, attribute] of cases) {
      const res = await search(q);
      expectError(res, 422, 'validation_failed');
      expect(Object.keys(res.body.errors), JSON.stringify(q)).toContain(attribute);
    }
    // 31 days inclusive is the most.
    expect(
      (await search({ location_id: cal.siteA, appointment_type_id: cal.followUp, from: `${D(-10)}`, to: `${D(20)}` }))
        .status,
    ).toBe(200);
  });

  it('limit returns the first slots (next available); total counts them all', async () => {
    const res = await search({
      location_id: cal.siteA,
      appointment_type_id: cal.followUp,
      from: `${D(0)}`,
      to: `${D(1)}`,
      limit: 3,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: Slot) => [s.starts_at, s.practitioner_id])).toEqual([
      [`${D(0)}T09:00:00`, cal.p1],
      [`${D(0)}T09:00:00`, cal.p2],
      [`${D(0)}T09:30:00`, cal.p1],
    ]);
    expect(res.body.meta.total).toBe(20 + 12);
  });

  it('never offers a slot in the past', async () => {
    // Hours that cover the test's own clock (today and tomorrow, all day), so the check below always
    // has slots to look at, whatever the day and time the suite runs.
    const today = clockFor('Europe/London').today();
    const tomorrow = addDays(today, 1);
    const now = new Date().toISOString();
    const allDay = (day: string) => ({
      account_id: t.clinic.account.id,
      practitioner_id: cal.p1,
      location_id: cal.siteA,
      day: null,
      type: 'custom_availability' as const,
      starts_at: `${day}T00:00:00`,
      ends_at: `${day}T23:59:00`,
      online_booking: false,
      metadata: {},
      created_at: now,
      updated_at: now,
    });
    await t.server.app.db.transaction((tx) =>
      tx.insert(practitionerAvailabilities).values([allDay(today), allDay(tomorrow)]),
    );
    const from = addDays(today, -6);
    const res = await search({
      location_id: cal.siteA,
      appointment_type_id: cal.followUp,
      practitioner_id: cal.p1,
      from,
      to: tomorrow,
    });
    expect(res.status).toBe(200);
    const slots = res.body.data as Slot[];
    expect(
      slots.filter((s) => s.starts_at.startsWith(tomorrow)).map((s) => s.starts_at),
      'tomorrow is open all day',
    ).toEqual(dayGrid(tomorrow));
    const nowWall = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/London',
      dateStyle: 'short',
      timeStyle: 'medium',
    })
      .format(new Date())
      .replace(' ', 'T');
    for (const s of slots) expect(s.starts_at >= nowWall, `${s.starts_at} is before ${nowWall}`).toBe(true);
    // Today's slots are exactly the day's grid from now on (every 30 minutes from 00:00, to 23:59, and on
    // weekdays around the fixture's 12:00-13:00 break): the ones before now are gone, none is offered twice.
    expect(slots.filter((s) => s.starts_at.startsWith(today)).map((s) => s.starts_at)).toEqual(
      dayGrid(today).filter((t) => t >= nowWall),
    );
    // Six whole past days are unavailable.
    expect(res.body.meta.unavailable_dates.slice(0, 6)).toEqual(Array.from({ length: 6 }, (_, i) => addDays(from, i)));
  });

  it('a booked slot disappears at once; rescheduled_appointment_id gives its own time back', async () => {
    const q = {
      location_id: cal.siteA,
      appointment_type_id: cal.followUp,
      practitioner_id: cal.p1,
      from: `${D(7)}`,
      to: `${D(7)}`,
    };
    expect(times((await search(q)).body.data)).toContain('10:00');
    const booked = await api.post('/appointments', {
      body: {
        patient_id: patientId,
        practitioner_id: cal.p1,
        location_id: cal.siteA,
        appointment_type_id: cal.followUp,
        starts_at: `${D(7)}T10:00:00`,
      },
    });
    expect(booked.status).toBe(201);
    const after = times((await search(q)).body.data);
    expect(after).not.toContain('10:00');
    expect(after).toHaveLength(13);
    expect(times((await search({ ...q, rescheduled_appointment_id: booked.body.data.id })).body.data)).toContain(
      '10:00',
    );
    expectError(await search({ ...q, rescheduled_appointment_id: 999999 }), 422, 'invalid_input');
  });

  it('a group type stays available while its session has places', async () => {
    const q = {
      location_id: cal.siteA,
      appointment_type_id: cal.pilates,
      practitioner_id: cal.p1,
      from: `${D(8)}`,
      to: `${D(8)}`,
    };
    const first = (await search(q)).body.data[0];
    expect(first).toMatchObject({ starts_at: `${D(8)}T09:00:00`, places_left: 2 });
    const book = () =>
      api.post('/appointments', {
        body: {
          patient_id: patientId,
          practitioner_id: cal.p1,
          location_id: cal.siteA,
          appointment_type_id: cal.pilates,
          starts_at: `${D(8)}T09:00:00`,
        },
      });
    expect((await book()).status).toBe(201);
    expect((await search(q)).body.data[0]).toMatchObject({ starts_at: `${D(8)}T09:00:00`, places_left: 1 });
    expect((await book()).status).toBe(201);
    expect((await search(q)).body.data[0].starts_at).toBe(`${D(8)}T10:00:00`);
  });

  it('a type that needs a resource gets a free one, skipping a resource closed by its own blockout', async () => {
    const q = { location_id: cal.siteA, appointment_type_id: cal.massage, practitioner_id: cal.p1 };
    const monday = (await search({ ...q, from: `${D(0)}`, to: `${D(0)}` })).body.data;
    // 45-minute slots from 09:00: 09:00, 09:45, 10:30, 11:15 before lunch.
    expect(times(monday).slice(0, 4)).toEqual(['09:00', '09:45', '10:30', '11:15']);
    expect(monday[0].resource_id).toBe(cal.tableA);
    const thursday = (await search({ ...q, from: `${D(3)}`, to: `${D(3)}` })).body.data;
    expect(thursday.every((s: Slot) => s.resource_id === cal.tableB)).toBe(true);
  });
});

describe('GET /availability across DST changes', () => {
  const nights = async (api_: typeof api, c: Calendar, day: string) =>
    times(
      (
        await api_.get(
          `/availability?location_id=${c.siteA}&appointment_type_id=${c.assessment}&practitioner_id=${c.p1}&from=${day}&to=${day}`,
        )
      ).body.data,
    );

  it('Europe/London: the lost hour in March has no slot, the repeated hour in October is offered once', async () => {
    // Sunday night hours 00:00-05:00 in 60-minute slots.
    expect(await nights(api, cal, `${addDays(DST.londonSpring, -7)}`)).toEqual([
      '00:00',
      '01:00',
      '02:00',
      '03:00',
      '04:00',
    ]);
    expect(await nights(api, cal, `${DST.londonSpring}`)).toEqual(['00:00', '02:00', '03:00', '04:00']);
    expect(await nights(api, cal, `${DST.londonAutumn}`)).toEqual(['00:00', '01:00', '02:00', '03:00', '04:00']);
  });

  it('Australia/Sydney: clocks go forward in October and back in April', async () => {
    const sydney = await newClinic(t.server, { region: 'apollo', timezone: 'Australia/Sydney', currency: 'AUD' });
    const sApi = client(t.server, sydney);
    const sCal = await calendarFixture(t.server, sydney);
    expect(await nights(sApi, sCal, `${DST.sydneySpring}`)).toEqual(['00:00', '01:00', '03:00', '04:00']);
    expect(await nights(sApi, sCal, `${DST.sydneyAutumn}`)).toEqual(['00:00', '01:00', '02:00', '03:00', '04:00']);
    // A weekday slot reads back as the right UTC instant either side of the change (AEDT +11, AEST +10).
    const pid = (await sApi.post('/patients', { body: { first_name: 'Syd', last_name: 'Ney' } })).body.data.id;
    const book = (starts_at: string) =>
      sApi.post('/appointments', {
        body: {
          patient_id: pid,
          practitioner_id: sCal.p1,
          location_id: sCal.siteA,
          appointment_type_id: sCal.followUp,
          starts_at,
        },
      });
    expect((await book(`${addDays(DST.sydneyAutumn, -2)}T09:00:00`)).body.data.starts_at_utc).toBe(
      `${addDays(DST.sydneyAutumn, -3)}T22:00:00.000Z`,
    );
    expect((await book(`${addDays(DST.sydneyAutumn, 1)}T09:00:00`)).body.data.starts_at_utc).toBe(
      `${DST.sydneyAutumn}T23:00:00.000Z`,
    );
  });
});

describe('discovery', () => {
  it('/schema/availability states the query parameters, the slot shape and the rules; /schema/appointments the lifecycle actions', async () => {
    const doc = (await api.get('/schema/availability')).body.data;
    expect(doc).toMatchObject({
      name: 'availability',
      operations: ['search'],
      write_operations: [],
      path: '/availability',
    });
    expect(Object.keys(doc.query.properties).sort()).toEqual([
      'appointment_type_id',
      'from',
      'limit',
      'location_id',
      'practitioner_id',
      'rescheduled_appointment_id',
      'to',
      'visibility',
    ]);
    expect(doc.query.required.sort()).toEqual(['appointment_type_id', 'location_id']);
    expect(doc.rules.join(' ')).toContain('appt_guide');
    const appts = (await api.get('/schema/appointments')).body.data;
    expect(Object.keys(appts.actions).sort()).toEqual(['arrive', 'cancel', 'miss', 'reinstate']);
    expect(appts.actions.cancel).toMatchObject({ method: 'POST', path: '/appointments/{id}/cancel' });
    expect(appts.attributes.starts_at).toMatchObject({
      type: 'walltime',
      filterable: true,
      sortable: true,
      writable: 'required',
    });
    const openapi = (await api.get('/openapi.json', { key: null })).body;
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining(['/availability', '/appointments', '/appointments/{id}', '/appointments/{id}/reinstate']),
    );
  });
});
