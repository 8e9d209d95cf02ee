/**
 * The specification's event table, walked: every type the API can cause is provoked through REST and
 * found in the outbox (hence delivered to subscribed webhook endpoints); the rest are types of resources
 * the API only reads, each with its reason. No type outside the table is ever announced.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, expect, test } from 'vitest';
import { events } from '../../db/schema';
import { EVENT_TYPES } from '../events/types';
import { billingFixture, type Billing } from './billing-fixture';
import { multipart, useClinic, type Res } from './helpers';
import { calendarFixture, D, type Calendar } from './scheduling-fixture';

const t = useClinic();
const { api } = t;
let cal: Calendar;
let bill: Billing;

beforeAll(async () => {
  cal = await calendarFixture(t.server, t.clinic);
  bill = await billingFixture(t.server, t.clinic);
});

const READ_ONLY = 'the resource is read-only through the API (set up in the clinic software)';
/** Types the API cannot cause, and why. */
const NOT_BY_API: Record<string, string> = {
  ...Object.fromEntries(
    ['locations', 'practitioners', 'appointment_types', 'modalities', 'payment_methods', 'practitioner_availabilities', 'patient_log_tags'].flatMap((r) =>
      ['created', 'updated', 'deleted'].map((v) => [`${r}.${v}`, READ_ONLY]),
    ),
  ),
  'referral_sources.deleted': 'referral sources are deactivated (PATCH active: false), never deleted',
  'patient_logs.updated': 'timeline entries are written once (POST only)',
  'patient_logs.deleted': 'timeline entries are written once (POST only)',
  'payment_allocations.updated': 'an allocation is made or removed, never changed',
};

/** The call's record, after checking its status. */
async function ok(res: Promise<Res>, status = 200) {
  const r = await res;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status} ${r.text}`);
  return r.body?.data;
}

test('every event type of the specification is either caused by the API or read-only, with its reason', async () => {
  // Patients, their numbers and address.
  const patient = await ok(api.post('/patients', { body: { first_name: 'Eve', last_name: 'Event', numbers: [{ number: '07700 900123', type: 'mobile' }], address: { line_1: '1 High St', city: 'Leeds' } } }), 201);
  await ok(api.patch(`/patients/${patient.id}`, { body: { first_name: 'Evie', numbers: [{ id: patient.numbers[0].id, number: '07700 900124', type: 'mobile' }], address: { city: 'York' } } }));
  await ok(api.patch(`/patients/${patient.id}`, { body: { numbers: [], address: null } }));
  await ok(api.post('/patient_logs', { body: { patient_id: patient.id, type: 'note', data: 'Called about the knee' } }), 201);
  const source = await ok(api.post('/referral_sources', { body: { name: 'Gym' } }), 201);
  await ok(api.patch(`/referral_sources/${source.id}`, { body: { name: 'The gym' } }));

  // Files.
  const upload = multipart({ patient_id: String(patient.id), file_type: 'generic' }, { name: 'note.txt', type: 'text/plain', bytes: Buffer.from('hello') });
  const file = await ok(api.post('/files', upload), 201);
  await ok(api.patch(`/files/${file.id}`, { body: { description: 'A note' } }));
  await ok(api.delete(`/files/${file.id}`), 204);

  // Appointments through their lifecycle.
  const book = (starts_at: string) =>
    ok(api.post('/appointments', { body: { patient_id: patient.id, practitioner_id: cal.p1, location_id: cal.siteA, appointment_type_id: cal.followUp, starts_at } }), 201);
  const a = await book(`${D(21)}T09:00:00`);
  await ok(api.patch(`/appointments/${a.id}`, { body: { notes: 'Knee' } }));
  await ok(api.patch(`/appointments/${a.id}`, { body: { starts_at: `${D(21)}T10:00:00` } }));
  await ok(api.post(`/appointments/${a.id}/cancel`, { body: { reason: 'Unwell' } }));
  await ok(api.post(`/appointments/${a.id}/reinstate`));
  await ok(api.delete(`/appointments/${a.id}`), 204);
  const lastMonday = new Date(Date.now() - 28 * 86_400_000);
  lastMonday.setUTCDate(lastMonday.getUTCDate() - ((lastMonday.getUTCDay() + 6) % 7));
  const day = lastMonday.toISOString().slice(0, 10);
  await ok(api.post(`/appointments/${(await book(`${day}T14:00:00`)).id}/arrive`));
  await ok(api.post(`/appointments/${(await book(`${day}T15:00:00`)).id}/miss`));

  // Billing: an invoice, a payment allocated to it, the allocation removed, a refund, voids.
  const invoice = await ok(api.post('/invoices', { body: { patient_id: patient.id, line_items: [{ billable_item_id: bill.consultation, quantity: 1 }] } }), 201);
  await ok(api.patch(`/invoices/${invoice.id}`, { body: { note: 'Paid in cash' } }));
  const payment = await ok(api.post('/payments', { body: { patient_id: patient.id, payment_method_id: bill.cash, amount: '80.00', allocations: [{ invoice_id: invoice.id, amount: '10.00' }] } }), 201);
  const [allocation] = await ok(api.get(`/payment_allocations?payment_id=${payment.id}`));
  await ok(api.delete(`/payment_allocations/${allocation.id}`), 204);
  await ok(api.post('/refunds', { body: { payment_id: payment.id, amount: '5.00' } }), 201);
  const unused = await ok(api.post('/payments', { body: { patient_id: patient.id, payment_method_id: bill.cash, amount: '20.00' } }), 201);
  await ok(api.delete(`/payments/${unused.id}`), 204);
  await ok(api.delete(`/invoices/${invoice.id}`), 204);
  await ok(api.delete(`/patients/${patient.id}`), 204);

  const announced = new Set((await t.server.app.db.db.select({ type: events.type }).from(events).where(eq(events.account_id, t.clinic.account.id))).map((e) => e.type));
  const unlisted = [...announced].filter((type) => !EVENT_TYPES.includes(type));
  expect(unlisted, 'announced types outside the specification table').toEqual([]);
  const missing = EVENT_TYPES.filter((type) => !announced.has(type) && !NOT_BY_API[type]);
  expect(missing, 'types the API should have caused').toEqual([]);
  const surprising = EVENT_TYPES.filter((type) => announced.has(type) && NOT_BY_API[type]);
  expect(surprising, 'types said to be read-only, yet announced').toEqual([]);
});
