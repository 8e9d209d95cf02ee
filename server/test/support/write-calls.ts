/**
 * Valid input for every write of the API, one definition for the tests that call them all: each POST,
 * PATCH and DELETE of the REST route table (CALLS) and each setup mutation of the portal (SETUP_CALLS),
 * by the name the table or the router gives it; events.catalogue.test.ts fails on a write without one.
 * Each input is made after the records it needs (through the API: their calls are requests too).
 * `prepareWriteCalls` in the file's beforeAll, once its clinic exists.
 */
import type { AnyProcedure } from '@trpc/server';
import { patientLogTags } from '../../../db/schema';
import { RouteTable, type Route } from '../../rest/routes';
import { appRouter } from '../../routers';
import { portalRouter } from '../../routers/portal';
import { billingFixture, type Billing } from '../billing-fixture';
import { multipart, request, uniqueName, type ClinicHarness, type Res } from '../helpers';
import { calendarFixture, D, type Calendar } from '../scheduling-fixture';
import { clinicTag } from './tags';
import { portalData, signedIn, type PortalClient } from './portal';

let t: ClinicHarness;
let cal: Calendar;
let bill: Billing;
let tagId: number;
let staff: PortalClient;
const api = {
  get: (...a: Parameters<ClinicHarness['api']['get']>) => t.api.get(...a),
  post: (...a: Parameters<ClinicHarness['api']['post']>) => t.api.post(...a),
};

/** The fixtures the inputs use, for a test's own calls. */
export const writeFixtures = () => ({ cal, bill, tagId });

/** Makes the fixtures the inputs use (a calendar, billing, a tag, a signed-in owner); returns the owner. */
export async function prepareWriteCalls(harness: ClinicHarness): Promise<PortalClient> {
  t = harness;
  cal = await calendarFixture(t.server, t.clinic);
  bill = await billingFixture(t.server, t.clinic);
  tagId = await clinicTag(t.server, t.clinic);
  staff = (await signedIn(t.server, t.clinic, 'owner')).portal;
  return staff;
}

/** Sends one input of a REST write route as the clinic's key, and checks the route's status. */
export async function callRoute(route: Route, input: Input): Promise<Res> {
  const path = route.path.replace('{id}', String(input.id));
  const res = await request(t.server, route.method, path, {
    host: t.clinic.host,
    key: t.clinic.key,
    ...(input.form ?? { body: input.body }),
  });
  if (res.status !== route.status)
    throw new Error(`${route.method} ${path}: expected ${route.status}, got ${res.status} ${res.text}`);
  return res;
}

/** Sends one input of a portal setup mutation as the owner, and checks it succeeded. */
export async function callSetup(path: string, input: unknown): Promise<Res> {
  const res = await staff.mutate(path, input);
  if (res.status !== 200) throw new Error(`${path}: answered ${res.status} ${res.text}`);
  return res;
}

/** The record a setup call made, after checking its status. */
async function made(res: Promise<Res>, status = 201) {
  const r = await res;
  if (r.status !== status) throw new Error(`setup: expected ${status}, got ${r.status} ${r.text}`);
  return r.body?.data;
}

/** A patient with a timeline entry tagged as the clinic software tags them (no surface of ours places those tags). */
async function patientWithTaggedTimeline(): Promise<number> {
  const id = (await patient()).id;
  const log = await made(api.post('/patient_logs', { body: { patient_id: id, type: 'note', data: 'Tagged' } }));
  await t.server.app.db.transaction((tx) =>
    tx.insert(patientLogTags).values({ account_id: t.clinic.account.id, patient_log_id: log.id, tag_id: tagId }),
  );
  return id;
}

const patient = async (extra: Record<string, unknown> = {}) =>
  made(api.post('/patients', { body: { first_name: 'Eve', last_name: 'Event', ...extra } }));
const book = async (starts_at: string) =>
  (
    await made(
      api.post('/appointments', {
        body: {
          patient_id: (await patient()).id,
          practitioner_id: cal.p1,
          location_id: cal.siteA,
          appointment_type_id: cal.followUp,
          starts_at,
        },
      }),
    )
  ).id as number;
/** A Monday four weeks back: appointments there can be arrived at or missed. */
const pastDay = () => {
  const d = new Date(Date.now() - 28 * 86_400_000);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
};
const invoice = async (lines = 1) =>
  made(
    api.post('/invoices', {
      body: {
        patient_id: (await patient()).id,
        line_items: Array.from({ length: lines }, () => ({ billable_item_id: bill.consultation, quantity: 1 })),
      },
    }),
  );
/** A payment of an invoice's patient (allocations go to invoices of the payment's patient only). */
const payment = async (of: { patient_id: number }, allocations: { invoice_id: number; amount: string }[] = []) =>
  made(
    api.post('/payments', {
      body: { patient_id: of.patient_id, payment_method_id: bill.cash, amount: '80.00', allocations },
    }),
  );
const upload = async (patientId?: number) =>
  multipart(
    { patient_id: String(patientId ?? (await patient()).id), file_type: 'generic' },
    { name: 'note.txt', type: 'text/plain', bytes: Buffer.from('hello') },
  );

/** One call of a route: its `{id}`, and a JSON body or a multipart one. */
export interface Input {
  id?: number;
  body?: unknown;
  form?: { raw: Buffer; headers: Record<string, string> };
}

/**
 * Valid input for every write route, by `METHOD path` as the route table spells it: made after the
 * records it needs (their own calls announce too, and count). Several inputs when one call cannot
 * cause each of a route's events (a PATCH that adds, changes and then removes a patient's numbers).
 */
export const CALLS: Record<string, () => Promise<Input[]>> = {
  'POST /appointments': async () => [
    {
      body: {
        patient_id: (await patient()).id,
        practitioner_id: cal.p1,
        location_id: cal.siteA,
        appointment_type_id: cal.followUp,
        starts_at: `${D(21)}T09:00:00`,
      },
    },
  ],
  'PATCH /appointments/{id}': async () => {
    const id = await book(`${D(22)}T09:00:00`);
    return [
      { id, body: { notes: 'Knee' } },
      { id, body: { starts_at: `${D(22)}T10:00:00` } },
    ];
  },
  'DELETE /appointments/{id}': async () => [{ id: await book(`${D(23)}T09:00:00`) }],
  'POST /appointments/{id}/cancel': async () => [{ id: await book(`${D(24)}T09:00:00`), body: { reason: 'Unwell' } }],
  'POST /appointments/{id}/arrive': async () => [{ id: await book(`${pastDay()}T14:00:00`) }],
  'POST /appointments/{id}/miss': async () => [{ id: await book(`${pastDay()}T15:00:00`) }],
  'POST /appointments/{id}/reinstate': async () => {
    const id = await book(`${D(25)}T09:00:00`);
    await made(api.post(`/appointments/${id}/cancel`, { body: { reason: 'Unwell' } }), 200);
    return [{ id }];
  },
  'POST /patients': async () => [
    {
      body: {
        first_name: 'Eve',
        last_name: 'Event',
        numbers: [{ number: '07700 900123', type: 'mobile' }],
        address: { line_1: '1 High St', city: 'Leeds' },
      },
    },
  ],
  'PATCH /patients/{id}': async () => {
    const p = await patient({
      numbers: [{ number: '07700 900123', type: 'mobile' }],
      address: { line_1: '1 High St', city: 'Leeds' },
    });
    return [
      {
        id: p.id,
        body: {
          first_name: 'Evie',
          numbers: [
            { id: p.numbers[0].id, number: '07700 900124', type: 'mobile' },
            { number: '07700 900125', type: 'home' },
          ],
          address: { city: 'York' },
        },
      },
      { id: p.id, body: { numbers: [], address: null } },
    ];
  },
  // A patient with a tagged timeline entry: their timeline, its tags and their numbers go with them.
  'DELETE /patients/{id}': async () => [{ id: await patientWithTaggedTimeline() }],
  'POST /patient_tags': async () => [{ body: { patient_id: (await patient()).id, tag_id: tagId } }],
  'DELETE /patient_tags/{id}': async () => [
    { id: (await made(api.post('/patient_tags', { body: { patient_id: (await patient()).id, tag_id: tagId } }))).id },
  ],
  'POST /patient_logs': async () => [
    { body: { patient_id: (await patient()).id, type: 'note', data: 'Called about the knee' } },
  ],
  'POST /referral_sources': async () => [{ body: { name: 'Gym' } }],
  'PATCH /referral_sources/{id}': async () => [
    { id: (await made(api.post('/referral_sources', { body: { name: 'Gym' } }))).id, body: { name: 'The gym' } },
  ],
  'POST /clinical_notes': async () => [
    { body: { patient_id: (await patient()).id, title: 'Assessment', body: 'Left knee, mild swelling' } },
  ],
  'POST /files': async () => [{ form: await upload() }],
  'PATCH /files/{id}': async () => [
    { id: (await made(api.post('/files', await upload()))).id, body: { description: 'A note' } },
  ],
  'DELETE /files/{id}': async () => [{ id: (await made(api.post('/files', await upload()))).id }],
  'POST /invoices': async () => [
    { body: { patient_id: (await patient()).id, line_items: [{ billable_item_id: bill.consultation, quantity: 1 }] } },
  ],
  'PATCH /invoices/{id}': async () => [{ id: (await invoice()).id, body: { note: 'Paid in cash' } }],
  'DELETE /invoices/{id}': async () => [{ id: (await invoice()).id }],
  'POST /line_items': async () => [
    { body: { invoice_id: (await invoice()).id, billable_item_id: bill.roller, quantity: 1 } },
  ],
  'PATCH /line_items/{id}': async () => [{ id: (await invoice()).line_items[0].id, body: { quantity: 2 } }],
  'DELETE /line_items/{id}': async () => [{ id: (await invoice(2)).line_items[1].id }],
  'POST /payments': async () => {
    const due = await invoice();
    return [
      {
        body: {
          patient_id: due.patient_id,
          payment_method_id: bill.cash,
          amount: '80.00',
          allocations: [{ invoice_id: due.id, amount: '10.00' }],
        },
      },
    ];
  },
  'DELETE /payments/{id}': async () => [{ id: (await payment({ patient_id: (await patient()).id })).id }],
  'POST /payment_allocations': async () => {
    const due = await invoice();
    return [{ body: { payment_id: (await payment(due)).id, invoice_id: due.id, amount: '10.00' } }];
  },
  'DELETE /payment_allocations/{id}': async () => {
    const due = await invoice();
    const paid = await payment(due, [{ invoice_id: due.id, amount: '10.00' }]);
    const [allocation] = await made(api.get(`/payment_allocations?payment_id=${paid.id}`), 200);
    return [{ id: allocation.id }];
  },
  'POST /refunds': async () => [
    { body: { payment_id: (await payment({ patient_id: (await patient()).id })).id, amount: '5.00' } },
  ],
};

/** A setup record made through the portal (its own announcement counts too). */
async function setUp(proc: string, input: unknown): Promise<{ id: number }> {
  const r = await staff.mutate(proc, input);
  if (r.status !== 200) throw new Error(`setup: ${proc} answered ${r.status} ${r.text}`);
  return portalData(r);
}
const location = () => setUp('practice.locations.create', { name: 'Event site' });
const appointmentType = () => setUp('practice.appointmentTypes.create', { name: 'Event type', duration_minutes: 30 });
const practitioner = async () =>
  setUp('practice.practitioners.create', {
    first_name: 'Eve',
    last_name: 'Setup',
    location_ids: [(await location()).id],
  });
const hours = async () => {
  const p = (await practitioner()) as { id: number; location_ids: number[] };
  return setUp('practice.hours.create', {
    practitioner_id: p.id,
    location_id: p.location_ids[0],
    type: 'open',
    day: '2',
    starts_at: '09:00',
    ends_at: '12:00',
  });
};

const exception = async () => {
  const p = (await practitioner()) as { id: number; location_ids: number[] };
  return setUp('practice.hours.exceptions.create', {
    practitioner_id: p.id,
    location_id: p.location_ids[0],
    type: 'custom_availability',
    date: D(31),
    starts_at: '18:00',
    ends_at: '20:00',
  });
};

/** Valid input for every setup mutation of the portal, by procedure path. */
export const SETUP_CALLS: Record<string, () => Promise<unknown[]>> = {
  'practice.locations.create': async () => [{ name: 'Harbour Street', city: 'Leeds' }],
  'practice.locations.update': async () => [{ id: (await location()).id, online_booking: true }],
  'practice.locations.delete': async () => [{ id: (await location()).id }],
  'practice.appointmentTypes.create': async () => [{ name: 'Assessment', duration_minutes: 45 }],
  'practice.appointmentTypes.update': async () => [{ id: (await appointmentType()).id, duration_minutes: 60 }],
  'practice.appointmentTypes.delete': async () => [{ id: (await appointmentType()).id }],
  'practice.practitioners.create': async () => [{ first_name: 'Ada', last_name: 'Event' }],
  'practice.practitioners.update': async () => [{ id: (await practitioner()).id, title: 'Dr' }],
  'practice.practitioners.delete': async () => [{ id: (await practitioner()).id }],
  'practice.hours.create': async () => {
    const p = (await practitioner()) as { id: number; location_ids: number[] };
    return [
      {
        practitioner_id: p.id,
        location_id: p.location_ids[0],
        type: 'open',
        day: '1',
        starts_at: '09:00',
        ends_at: '17:00',
      },
    ];
  },
  'practice.hours.update': async () => [{ id: (await hours()).id, ends_at: '13:00' }],
  'practice.hours.delete': async () => [{ id: (await hours()).id }],
  'practice.hours.exceptions.create': async () => {
    const p = (await practitioner()) as { id: number; location_ids: number[] };
    return [
      {
        practitioner_id: p.id,
        location_id: p.location_ids[0],
        type: 'closed',
        date: D(30),
        starts_at: null,
        ends_at: null,
      },
    ];
  },
  'practice.hours.exceptions.update': async () => [
    { id: (await exception()).id, starts_at: '09:00', ends_at: '12:00' },
  ],
  'practice.hours.exceptions.delete': async () => [{ id: (await exception()).id }],
  'practice.settings.update': async () => [{ mark_missed: true, mark_missed_after_hours: 3 }],
  'practice.hours.copyDay': async () => {
    const h = (await hours()) as unknown as { practitioner_id: number; location_id: number };
    return [{ practitioner_id: h.practitioner_id, location_id: h.location_id, from_day: '2', to_days: ['3', '4'] }];
  },
  'practice.hours.closures.create': async () => [
    { location_id: (await location()).id, date: D(32), starts_at: null, ends_at: null, description: 'Holiday' },
  ],
  'practice.hours.closures.delete': async () => {
    const made = (await setUp('practice.hours.closures.create', {
      location_id: (await location()).id,
      date: D(33),
      starts_at: '09:00',
      ends_at: '12:00',
    })) as unknown as { data: { id: number }[] };
    return [{ id: made.data[0].id }];
  },
  // A name only: the time zone's consequences (appointments announced) have their own test (clinic-profile).
  'practice.profile.update': async () => [{ name: uniqueName('Clinic ') }],
  'practice.modalities.create': async () => [{ name: 'Dry needling', color: '#aa3366' }],
  'practice.modalities.update': async () => [
    { id: (await setUp('practice.modalities.create', { name: 'Massage' })).id, name: 'Sports massage' },
  ],
  'practice.modalities.delete': async () => [
    { id: (await setUp('practice.modalities.create', { name: 'Cupping' })).id },
  ],
  'practice.paymentMethods.create': async () => [{ name: 'Voucher', type: 'other' }],
  'practice.paymentMethods.update': async () => [
    { id: (await setUp('practice.paymentMethods.create', { name: 'Cheque', type: 'cheque' })).id, active: false },
  ],
  'practice.paymentMethods.delete': async () => [
    { id: (await setUp('practice.paymentMethods.create', { name: 'Tokens', type: 'other' })).id },
  ],
  // A tag's name is one tag (a second is refused): each call names its own.
  'practice.tags.create': async () => [{ name: uniqueName('Swimmer ') }],
  'practice.tags.update': async () => [
    { id: (await setUp('practice.tags.create', { name: uniqueName('Cyclist ') })).id, color: '#3366cc' },
  ],
  'practice.tags.delete': async () => [
    { id: (await setUp('practice.tags.create', { name: uniqueName('Rower ') })).id },
  ],
  'practice.referralSources.create': async () => [{ name: 'Leaflet' }],
  'practice.referralSources.update': async () => [
    { id: (await setUp('practice.referralSources.create', { name: 'Radio' })).id, category: 'Advert' },
  ],
  'practice.referralSources.delete': async () => [
    { id: (await setUp('practice.referralSources.create', { name: 'Poster' })).id },
  ],
  // Billable items and rooms have no event types (the specification lists none): audited, not announced.
  'practice.billableItems.create': async () => [{ name: 'Massage 30', item_type: 'service', price: '35.00' }],
  'practice.billableItems.update': async () => [
    {
      id: (await setUp('practice.billableItems.create', { name: 'Tape', item_type: 'product', price: '4.50' })).id,
      price: '5.00',
    },
  ],
  'practice.billableItems.delete': async () => [
    { id: (await setUp('practice.billableItems.create', { name: 'Gel', item_type: 'product', price: '2.00' })).id },
  ],
  'practice.rooms.create': async () => [{ location_id: (await location()).id, name: 'Room 1' }],
  'practice.rooms.update': async () => [
    {
      id: (await setUp('practice.rooms.create', { location_id: (await location()).id, name: 'Room 2' })).id,
      status: 'inactive',
    },
  ],
  'practice.rooms.delete': async () => [
    { id: (await setUp('practice.rooms.create', { location_id: (await location()).id, name: 'Room 3' })).id },
  ],
};

/** The portal's setup writes, read from its router: a new one is held to the catalogue the day it is added. */
export const SETUP = Object.entries(portalRouter._def.procedures)
  .filter(([path, p]) => path.startsWith('practice.') && (p as unknown as AnyProcedure)._def.type === 'mutation')
  .map(([path]) => path);

export const WRITES = new RouteTable(appRouter).routes.filter((r) => r.method !== 'GET');
export const nameOf = (r: Route) => `${r.method} ${r.path}`;
