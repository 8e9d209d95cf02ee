import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, expectError, newClinic, request, startServer, type Clinic, type TestServer } from './helpers';

let server: TestServer;
let a: Clinic;
let b: Clinic;
let bPatient: number;

beforeAll(async () => {
  server = await startServer();
  [a, b] = await Promise.all([newClinic(server, { seed: true }), newClinic(server, { seed: true, region: 'apollo', timezone: 'Australia/Sydney', currency: 'AUD' })]);
  bPatient = (await client(server, b).post('/patients', { body: { first_name: 'Only', last_name: 'InB' } })).body.data.id;
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
    const bNumberIds = (await client(server, b).get('/numbers?page_size=100')).body.data.map((n: { id: number }) => n.id);
    const aNumbers = (await api.get(`/numbers?id=in:${bNumberIds.slice(0, 50).join(',')}`)).body.data;
    expect(aNumbers).toEqual([]);
  });

  it("a reference to another clinic's record is refused as missing", async () => {
    const bLocation = (await client(server, b).get('/locations')).body.data[0].id;
    const res = await client(server, a).post('/patients', { body: { first_name: 'X', last_name: 'Y', default_location_id: bLocation } });
    expectError(res, 422, 'location_not_found');
  });
});
