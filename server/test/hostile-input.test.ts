/**
 * Inputs an attacker can send that once reached a 500 (security review): each is a 4xx in the error
 * shape, changes nothing, and behaves the same on SQLite and PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import { isPg } from '../../db/dialect';
import { toApiError } from '../rest/errors';
import { describe, expect, test } from 'vitest';
import { apiKeys, patients } from '../../db/schema';
import { clinicRows, expectError, request, useClinic } from './helpers';
import { portalCode, portalData, signedIn } from './support/portal';

const t = useClinic();
const NUL = 'must not contain the NUL character (\\u0000)';

const patientCount = () => clinicRows(t.server, t.clinic, patients);

describe('the NUL character is refused on every input surface, the same on both databases', () => {
  test('in a filter value: 422 naming the parameter', async () => {
    const res = await t.api.get('/patients?last_name=contains:a%00bc');
    expectError(res, 422, 'validation_failed');
    expect(res.body.errors).toEqual({ last_name: [NUL] });
  });

  test('in a path parameter', async () => {
    expectError(await t.api.get('/patients/1%00'), 422, 'validation_failed');
  });

  test('in a body string, a nested key or metadata: 422, and no row is written', async () => {
    const before = await patientCount();
    const named = await t.api.post('/patients', { body: { first_name: 'A\u0000da', last_name: 'Lovelace' } });
    expectError(named, 422, 'validation_failed');
    expect(named.body.errors).toEqual({ first_name: [NUL] });
    const meta = await t.api.post('/patients', {
      body: { first_name: 'Ada', last_name: 'Lovelace', metadata: { 'k\u0000': 'v' } },
    });
    expectError(meta, 422, 'validation_failed');
    // A bad key is named by where it is: its own text is not echoed.
    expect(meta.body.errors).toEqual({ metadata: [`has a key that ${NUL}`] });
    expect(await patientCount()).toBe(before);
  });

  test('in a portal call: 422, and nothing is created', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'owner');
    const keys = () => clinicRows(t.server, t.clinic, apiKeys);
    const before = await keys();
    const res = await portal.mutate('keys.create', { name: 'Sync\u0000job', access: 'read_write', expires: 'never' });
    expect(res.status).toBe(422);
    expect(portalCode(res)).toBe('validation_failed');
    expect(await keys()).toBe(before);
  });
});

describe('a lone UTF-16 surrogate is refused on every input surface, the same on both databases', () => {
  const ILL = 'must be well-formed Unicode (it holds a lone surrogate such as \\udfff)';
  test.each([
    ['a name', { first_name: 'Ada \udfff', last_name: 'Lovelace' }, { first_name: [ILL] }],
    ['a metadata value', { first_name: 'Ada', last_name: 'L', metadata: { k: 'v\ud800' } }, { 'metadata.k': [ILL] }],
    [
      'a metadata key',
      { first_name: 'Ada', last_name: 'L', metadata: { 'k\udfff': 'v' } },
      { metadata: [`has a key that ${ILL}`] },
    ],
  ])('in %s of a REST body: 422, nothing written', async (_, body, errors) => {
    const before = await patientCount();
    const res = await t.api.post('/patients', { body });
    expectError(res, 422, 'validation_failed');
    expect(res.body.errors).toEqual(errors);
    expect(await patientCount()).toBe(before);
  });

  test('in a portal call (a location name): 422, nothing created', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const res = await portal.mutate('practice.locations.create', { name: 'Harbour \udfff Street' });
    expect([res.status, portalCode(res)]).toEqual([422, 'validation_failed']);
  });

  test('a well-formed pair (an emoji) is text like any other', async () => {
    const res = await t.api.post('/patients', { body: { first_name: 'Ada \ud83d\ude00', last_name: 'Lovelace' } });
    expect(res.status).toBe(201);
    expect(res.body.data.first_name).toBe('Ada 😀');
  });
});

describe('dates outside the calendar (years 0001-9998) are 422 everywhere, never a 500', () => {
  test.each([
    ['/patients?created_at=gt:0000-01-01T00:00:00Z', 'created_at'],
    ['/patients?dob=gt:0000-01-01', 'dob'],
    ['/patients?updated_at=lt:9999-12-31T23:59:59Z', 'updated_at'],
    ['/availability?location_id=1&appointment_type_id=1&from=9999-12-30&to=9999-12-31', 'from,to'],
    ['/events?occurred_at=gte:0000-12-31T00:00:00Z', 'occurred_at'],
  ])('GET %s: 422 naming %s', async (path, attribute) => {
    const res = await t.api.get(path);
    expectError(res, 422, 'validation_failed');
    expect(Object.keys(res.body.errors)).toEqual(attribute.split(','));
  });

  test('a body date of year 0000: 422, nothing written', async () => {
    const before = await patientCount();
    const res = await t.api.post('/patients', { body: { first_name: 'Ada', last_name: 'L', dob: '0000-02-29' } });
    expectError(res, 422, 'validation_failed');
    expect(await patientCount()).toBe(before);
  });

  test('portal logs: far dates, a forged cursor and a request id of year 10889 are 422 or nothing found', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const far = await portal.query('requests.list', { from: '0001-01-01', to: '9999-12-31' });
    expect([far.status, portalCode(far)]).toEqual([422, 'validation_failed']);
    expect(portalCode(await portal.query('activity.list', { to: '9999-12-31' }))).toBe('validation_failed');
    expect(portalCode(await portal.query('requests.list', { before: '2026-13-45T99:99:99.999Z_1' }))).toBe(
      'validation_failed',
    );
    // A UUIDv7 whose time is 2^48 - 1 ms (year 10889) names no request of ours: an empty page.
    const forged = await portal.query('requests.list', { request_id: 'ffffffff-ffff-7fff-bfff-ffffffffffff' });
    expect(forged.status).toBe(200);
    expect(portalData(forged).data).toEqual([]);
    expect((await portal.query('requests.list', { from: '0001-01-01', to: '9998-12-31' })).status).toBe(200);
  });
});

describe('malformed transport details are 4xx, not 500', () => {
  test('a portal POST with Content-Type text/plain is 415', async () => {
    const res = await request(t.server, 'POST', '/developers/trpc/session.signIn', {
      host: t.clinic.host,
      raw: '{"email":"a@b.test","password":"x"}',
      headers: { 'content-type': 'text/plain', origin: `http://${t.clinic.host}` },
    });
    expect(res.status).toBe(415);
    expect(portalCode(res)).toBe('unsupported_media_type');
  });

  test('a session cookie with a malformed escape is no session (401), on the transport and the pages alike', async () => {
    const res = await request(t.server, 'GET', '/developers/trpc/session.me', {
      host: t.clinic.host,
      headers: { cookie: 'clinic_session=%' },
    });
    expect(res.status).toBe(401);
    expect(portalCode(res)).toBe('unauthenticated');
    const page = await t.server.app.portal.contextFor({
      headers: { host: t.clinic.host, cookie: 'clinic_session=%E0%A4%A' },
    });
    expect(page).toMatchObject({ member: null });
  });
});

describe("requests node's parser refuses get the API's answer", () => {
  /** Raw bytes on a socket, and everything the server answers before it closes. */
  async function raw(bytes: string): Promise<string> {
    const { connect } = await import('node:net');
    return new Promise((resolve, reject) => {
      const socket = connect(t.server.port, '127.0.0.1', () => socket.end(bytes));
      let out = '';
      socket.on('data', (c) => (out += c.toString()));
      socket.on('end', () => resolve(out));
      socket.on('error', reject);
    });
  }

  test('a URL over 16 KB: 431 headers_too_large as JSON, with the security headers, connection closed', async () => {
    const answer = await raw(
      `GET /v3/api/patients?last_name=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: ${t.clinic.host}\r\n\r\n`,
    );
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head).toMatch(/\r\nContent-Type: application\/json/i);
    expect(head).toMatch(/\r\nX-Content-Type-Options: nosniff/i);
    expect(head).toMatch(/\r\nConnection: close/i);
    expect(head).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}/i);
    expect(JSON.parse(body)).toEqual({ message: expect.any(String), code: 'headers_too_large' });
  });

  test('a malformed request line: 400 bad_request as JSON', async () => {
    const answer = await raw('GET /v3/api/ping HTTP/1.1\r\nHost: a\r\nBad Header Line\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(answer.split('\r\n\r\n')[1])).toEqual({ message: 'Malformed HTTP request', code: 'bad_request' });
  });
});

describe('database refusals of input are 4xx', () => {
  test('an id past 2^53 − 1 in a portal call is 422 validation_failed; one past 32 bits is a valid id (bigint ids)', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const unsafe = await portal.query('requests.list', { key_id: Number.MAX_SAFE_INTEGER + 1 });
    expect([unsafe.status, portalCode(unsafe)]).toEqual([422, 'validation_failed']);
    // Past 32 bits reaches the bigint column (the fuzz once found a 500 here on a 32-bit one): no such key, no rows.
    for (const key_id of [2 ** 31, Number.MAX_SAFE_INTEGER]) {
      const res = await portal.query('requests.list', { key_id });
      expect([res.status, portalData(res)?.data], String(key_id)).toEqual([200, []]);
    }
  });

  test.runIf(isPg)(
    'should a number past its column reach PostgreSQL, it is 422 validation_failed (only on PostgreSQL)',
    async () => {
      const err = await t.server.app.db.all(sql`select ${2_147_483_648}::int4 as n`).then(
        () => null,
        (e: unknown) => e,
      );
      const { error, internal } = toApiError(err);
      expect([error.status, error.code, internal]).toEqual([422, 'validation_failed', false]);
    },
  );
});
