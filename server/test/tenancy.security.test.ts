import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, expectError, newClinic, request, startServer, type Clinic, type TestServer } from './helpers';

let server: TestServer;
let a: Clinic;
let b: Clinic;
let bPatient: number;

beforeAll(async () => {
  server = await startServer();
  [a, b] = await Promise.all([
    newClinic(server, { seed: true }),
    newClinic(server, { seed: true, region: 'apollo', timezone: 'Australia/Sydney', currency: 'AUD' }),
  ]);
  bPatient = (await client(server, b).post('/patients', { body: { first_name: 'Only', last_name: 'InB' } })).body.data
    .id;
});
afterAll(() => server.close());

describe('tenants are walled off', () => {
  it("one clinic's key does not authenticate on another clinic's host", async () => {
    expectError(await request(server, 'GET', '/me', { host: b.host, key: a.key }), 401, 'unauthenticated');
    expectError(await request(server, 'GET', '/patients', { host: a.host, key: b.key }), 401, 'unauthenticated');
  });

  it("another clinic's record ids are 404 on every read, write and delete", async () => {
    const api = client(server, a);
    expectError(await api.get(`/patients/${bPatient}`), 404, 'not_found');
    expectError(await api.patch(`/patients/${bPatient}`, { body: { first_name: 'Hacked' } }), 404, 'not_found');
    expectError(await api.delete(`/patients/${bPatient}`), 404, 'not_found');
    const bLocation = (await client(server, b).get('/locations')).body.data[0].id;
    expectError(await api.get(`/locations/${bLocation}`), 404, 'not_found');
    expect((await client(server, b).get(`/patients/${bPatient}`)).body.data.first_name).toBe('Only');
  });

  it("lists and filters never show another clinic's rows", async () => {
    const api = client(server, a);
    expect((await api.get(`/patients?id=${bPatient}`)).body.data).toEqual([]);
    expect((await api.get('/patients?last_name=InB')).body.meta.total).toBe(0);
    const bNumberIds = (await client(server, b).get('/numbers?page_size=100')).body.data.map(
      (n: { id: number }) => n.id,
    );
    const aNumbers = (await api.get(`/numbers?id=in:${bNumberIds.slice(0, 50).join(',')}`)).body.data;
    expect(aNumbers).toEqual([]);
  });

  it("a reference to another clinic's record is refused as missing", async () => {
    const bLocation = (await client(server, b).get('/locations')).body.data[0].id;
    const res = await client(server, a).post('/patients', {
      body: { first_name: 'X', last_name: 'Y', default_location_id: bLocation },
    });
    expectError(res, 422, 'location_not_found');
  });
});

describe('tenants are walled off: diaries and ledgers', () => {
  it("another clinic's appointments, invoices and payments are 404; their ids are refused as references", async () => {
    const api = client(server, a);
    const bApi = client(server, b);
    const bAppointment = (await bApi.get('/appointments')).body.data[0];
    const bInvoice = (await bApi.get('/invoices')).body.data[0];
    const bPayment = (await bApi.get('/payments')).body.data[0];
    expectError(await api.get(`/appointments/${bAppointment.id}`), 404, 'not_found');
    expectError(await api.post(`/appointments/${bAppointment.id}/cancel`), 404, 'not_found');
    expectError(await api.delete(`/appointments/${bAppointment.id}`), 404, 'not_found');
    expectError(await api.get(`/invoices/${bInvoice.id}`), 404, 'not_found');
    expectError(await api.delete(`/invoices/${bInvoice.id}`), 404, 'not_found');
    expectError(await api.delete(`/payments/${bPayment.id}`), 404, 'not_found');
    expect((await api.get(`/appointments?id=${bAppointment.id}`)).body.data).toEqual([]);
    expect((await api.get(`/invoices?number=${bInvoice.number}&patient_id=${bInvoice.patient_id}`)).body.data).toEqual(
      [],
    );

    // Booking or billing with another clinic's records.
    const mine = (await api.get('/appointments')).body.data[0];
    const booking = {
      patient_id: mine.patient_id,
      practitioner_id: mine.practitioner_id,
      location_id: mine.location_id,
      appointment_type_id: mine.appointment_type_id,
      starts_at: '2030-01-07T09:00:00',
    };
    expectError(
      await api.post('/appointments', { body: { ...booking, patient_id: bPatient } }),
      422,
      'patient_not_found',
    );
    expectError(
      await api.post('/appointments', { body: { ...booking, practitioner_id: bAppointment.practitioner_id } }),
      422,
      'practitioner_not_found',
    );
    expectError(
      await api.post('/appointments', { body: { ...booking, location_id: bAppointment.location_id } }),
      422,
      'location_not_found',
    );
    expectError(
      await api.get(
        `/availability?location_id=${bAppointment.location_id}&appointment_type_id=${mine.appointment_type_id}`,
      ),
      422,
      'location_not_found',
    );
    expectError(
      await api.post('/invoices', {
        body: { patient_id: bPatient, line_items: [{ billable_item_id: 1, quantity: 1 }] },
      }),
      422,
      'patient_not_found',
    );
    const myInvoice = (await api.get('/invoices')).body.data[0];
    expectError(
      await api.post('/payment_allocations', {
        body: { payment_id: bPayment.id, invoice_id: myInvoice.id, amount: '1.00' },
      }),
      422,
      'invalid_input',
    );
    expectError(
      await api.post('/refunds', { body: { payment_id: bPayment.id, amount: '1.00' } }),
      422,
      'invalid_input',
    );
    expect((await bApi.get(`/payments/${bPayment.id}`)).body.data).toEqual(bPayment);
  });
});
