import { beforeAll, describe, expect, it } from 'vitest';
import { client, expectError, newClinic, request, startServer, useClinic } from './helpers';

const t = useClinic({ env: { MAX_BODY_BYTES: '2048' } });
const { api } = t;
let patientId: number;

beforeAll(async () => {
  patientId = (await api.post('/patients', { body: { first_name: 'Ada', last_name: 'Lovelace' } })).body.data.id;
});

describe('routing', () => {
  it('unknown path → 404 not_found (JSON)', async () => {
    expectError(await api.get('/nope'), 404, 'not_found');
    expectError(await api.get('/patients/1/nope'), 404, 'not_found');
  });
  it('PUT on a known path → 405 method_not_allowed with Allow', async () => {
    const res = await api.put(`/patients/${patientId}`, { body: { first_name: 'X' } });
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toContain('PATCH');
  });
  it('a write to a read-only resource → 405 unsupported_operation', async () => {
    expectError(await api.post('/locations', { body: { name: 'X' } }), 405, 'unsupported_operation');
    expectError(await api.patch('/practitioners/1', { body: {} }), 405, 'unsupported_operation');
    expectError(await api.delete('/numbers/1'), 405, 'unsupported_operation');
    expectError(await api.post('/addresses', { body: {} }), 405, 'unsupported_operation');
  });
  it('a missing record → 404 not_found', async () => {
    expectError(await api.get('/patients/999999999'), 404, 'not_found');
    expectError(await api.get('/locations/999999999'), 404, 'not_found');
    // Names of one record are declared, not guessed from the plural.
    expect((await api.get('/addresses/999999999')).body.message).toBe('Address not found');
    expect((await api.get('/practitioner_availabilities/999999999')).body.message).toBe(
      'Practitioner availability not found',
    );
  });
  it('an unknown query parameter on a single read → 422', async () => {
    const res = await api.get(`/patients/${patientId}?expand=all`);
    expectError(res, 422, 'validation_failed');
    expect(Object.keys(res.body.errors)).toEqual(['expand']);
  });
  it('a non-numeric id → 422', async () => {
    expectError(await api.get('/patients/abc'), 422, 'validation_failed');
  });
  it('unknown resource in /schema → 404', async () => {
    expectError(await api.get('/schema/nothing'), 404, 'not_found');
    expectError(await api.get('/schema/constructor'), 404, 'not_found');
  });
});

describe('authentication and authorisation', () => {
  it('no key → 401 with WWW-Authenticate', async () => {
    const res = await api.get('/patients', { key: null });
    expectError(res, 401, 'unauthenticated');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });
  it('garbage, checksum-broken and unknown keys → 401', async () => {
    expectError(await api.get('/me', { key: 'nonsense' }), 401, 'unauthenticated');
    const broken = t.clinic.key.slice(0, -1) + (t.clinic.key.endsWith('A') ? 'B' : 'A');
    expectError(await api.get('/me', { key: broken }), 401, 'unauthenticated');
    expectError(await api.get('/me', { key: '12|' + 'a'.repeat(48) }), 401, 'unauthenticated');
  });
  it('read-only key on any write → 403 key_read_only, nothing written', async () => {
    expectError(
      await api.post('/patients', { key: t.clinic.readOnlyKey, body: { first_name: 'A', last_name: 'B' } }),
      403,
      'key_read_only',
    );
    expectError(
      await api.patch(`/patients/${patientId}`, { key: t.clinic.readOnlyKey, body: { first_name: 'Z' } }),
      403,
      'key_read_only',
    );
    expectError(await api.delete(`/patients/${patientId}`, { key: t.clinic.readOnlyKey }), 403, 'key_read_only');
    expect((await api.get(`/patients/${patientId}`, { key: t.clinic.readOnlyKey })).body.data.first_name).toBe('Ada');
  });
});

describe('bad input changes nothing', () => {
  const countPatients = async () => (await api.get('/patients?page_size=1')).body.meta.total;

  it('malformed JSON → 422 validation_failed (not 500, not HTML)', async () => {
    const before = await countPatients();
    const res = await api.post('/patients', { raw: '{"first_name": "A",' });
    expectError(res, 422, 'validation_failed');
    expect(res.body.errors.body[0]).toMatch(/malformed JSON/);
    expect(await countPatients()).toBe(before);
  });
  it('a body that is not an object → 422', async () => {
    expectError(await api.post('/patients', { raw: '[1,2]' }), 422, 'validation_failed');
  });
  it('not JSON → 415 unsupported_media_type', async () => {
    expectError(
      await api.post('/patients', {
        raw: 'first_name=A',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'unsupported_media_type',
    );
  });
  it('over the body size limit → 413 payload_too_large', async () => {
    expectError(
      await api.post('/patients', { body: { first_name: 'A', last_name: 'B', note: 'x'.repeat(5000) } }),
      413,
      'payload_too_large',
    );
  });
  it('missing required, wrong type, too long, unknown attribute → 422 with errors keyed by attribute', async () => {
    const before = await countPatients();
    const missing = await api.post('/patients', { body: { first_name: 'A' } });
    expectError(missing, 422, 'validation_failed');
    expect(Object.keys(missing.body.errors)).toEqual(['last_name']);
    const wrongType = await api.post('/patients', { body: { first_name: 'A', last_name: 'B', blocked: 'yes' } });
    expect(Object.keys(wrongType.body.errors)).toEqual(['blocked']);
    const tooLong = await api.post('/patients', { body: { first_name: 'A'.repeat(256), last_name: 'B' } });
    expect(Object.keys(tooLong.body.errors)).toEqual(['first_name']);
    const unknown = await api.post('/patients', { body: { first_name: 'A', last_name: 'B', shoe_size: 42 } });
    expectError(unknown, 422, 'validation_failed');
    expect(unknown.body.errors).toEqual({ shoe_size: ['is not a known attribute'] });
    const badEmail = await api.post('/patients', { body: { first_name: 'A', last_name: 'B', email: 'not-an-email' } });
    expect(Object.keys(badEmail.body.errors)).toEqual(['email']);
    const badDay = await api.post('/patients', { body: { first_name: 'A', last_name: 'B', dob: '2020-02-30' } });
    expect(Object.keys(badDay.body.errors)).toEqual(['dob']);
    expect(await countPatients()).toBe(before);
  });
  it('metadata rules: 50 keys, 500 chars, scalar values only', async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    expectError(
      await api.post('/patients', { body: { first_name: 'A', last_name: 'B', metadata: tooMany } }),
      422,
      'validation_failed',
    );
    expectError(
      await api.post('/patients', { body: { first_name: 'A', last_name: 'B', metadata: { a: 'x'.repeat(501) } } }),
      422,
      'validation_failed',
    );
    expectError(
      await api.post('/patients', { body: { first_name: 'A', last_name: 'B', metadata: { a: { nested: true } } } }),
      422,
      'validation_failed',
    );
  });
});

describe('list query errors', () => {
  it.each([
    ['unknown filter attribute', '/patients?shoe_size=42'],
    ['non-filterable attribute', '/patients?note=x'],
    ['bad integer', '/patients?id=gt:abc'],
    ['bad boolean', '/patients?blocked=maybe'],
    ['bad timestamp', '/patients?created_at=gt:yesterday'],
    ['bad day', '/patients?dob=2020-13-01'],
    ['enum value not allowed', '/patients?sex=prefer_not_to_say'],
    ['between needs two values', '/patients?id=between:1'],
    ['null on a never-null attribute', '/patients?first_name=null'],
    ['contains on a number', '/patients?id=contains:1'],
    ['unsortable attribute', '/patients?sort=note'],
    ['unknown sort attribute', '/patients?sort=shoe_size:asc'],
    ['bad sort direction', '/patients?sort=first_name:up'],
    ['page_size too large', '/patients?page_size=101'],
    ['page_size zero', '/patients?page_size=0'],
    ['page not a number', '/patients?page=two'],
    ['tampered cursor', '/patients?cursor=abc.def'],
  ])('%s → 422', async (_label, path) => {
    expectError(await api.get(path), 422, 'validation_failed');
  });

  it('a cursor reused with other filters, sort or page_size → 422', async () => {
    await api.post('/patients', { body: { first_name: 'Bea', last_name: 'Lovelace' } });
    const first = await api.get('/patients?cursor=&page_size=1&last_name=Lovelace');
    expect(first.status).toBe(200);
    const token = new URL(first.body.links.next).searchParams.get('cursor')!;
    expect((await api.get(`/patients?cursor=${token}&page_size=1&last_name=Lovelace`)).status).toBe(200);
    expectError(await api.get(`/patients?cursor=${token}&page_size=2&last_name=Lovelace`), 422, 'validation_failed');
    expectError(await api.get(`/patients?cursor=${token}&page_size=1&last_name=Byron`), 422, 'validation_failed');
    expectError(
      await api.get(`/patients?cursor=${token}&page_size=1&last_name=Lovelace&sort=first_name`),
      422,
      'validation_failed',
    );
  });
});

describe('tenant host', () => {
  it.each([
    ['unknown clinic', 'nosuchclinic.neptune.localhost'],
    ['unknown region', 'x.pluto.localhost'],
    ['not a tenant host', 'localhost'],
  ])('%s → 404 not_found', async (_label, host) => {
    expectError(await request(t.server, 'GET', '/me', { host, key: t.clinic.key }), 404, 'not_found');
  });
  it('region mismatch → 404 not_found', async () => {
    expectError(
      await request(t.server, 'GET', '/me', {
        host: `${t.clinic.account.subdomain}.mercury.localhost`,
        key: t.clinic.key,
      }),
      404,
      'not_found',
    );
  });
});

describe('server errors', () => {
  it('an unexpected failure is a JSON 500 internal_error that leaks nothing', async () => {
    const broken = await startServer();
    const c = await newClinic(broken);
    // Let the key and tenant lookups succeed (cached), then take the database away under the read.
    expect((await client(broken, c).get('/me')).status).toBe(200);
    const realSelect = broken.app.db.db.select.bind(broken.app.db.db);
    (broken.app.db.db as { select: unknown }).select = () => {
      throw new Error('SQLITE_CORRUPT: secret internal detail at /var/lib/db');
    };
    try {
      const res = await client(broken, c).get('/locations?page=1');
      expectError(res, 500, 'internal_error');
      expect(res.text).not.toMatch(/SQLITE|secret|\/var\/lib|at .*\.ts/);
      expect(res.headers['x-request-id']).toBeDefined();
    } finally {
      (broken.app.db.db as { select: unknown }).select = realSelect;
      await broken.close();
    }
  });
});
