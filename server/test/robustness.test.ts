/**
 * Every request gets a prompt, well-formed answer: hostile or odd input (prototype-named keys, deep
 * nesting, invalid UTF-8, huge values, many parameters, odd paths, a stalled body) is a JSON 4xx (or a
 * success where that is right), never a hang or a 500, and a refused request writes nothing.
 */
import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { events, patients } from '../../db/schema';
import { client, expectError, newClinic, request, type Res, startServer, useClinic } from './helpers';

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

const t = useClinic({ seed: true });
const { api } = t;
let patientId: number;
let refs: { location: number; practitioner: number; type: number; billable: number; method: number; invoice: number };

beforeAll(async () => {
  patientId = (await api.post('/patients', { body: { first_name: 'Ada', last_name: 'Lovelace' } })).body.data.id;
  const first = async (path: string) => (await api.get(path)).body.data[0].id as number;
  refs = {
    location: await first('/locations'),
    practitioner: await first('/practitioners'),
    type: await first('/appointment_types'),
    billable: await first('/billable_items'),
    method: await first('/payment_methods?active=true&name=Cash'),
    invoice: await first('/invoices?state=open'),
  };
});

/** What a refused request must leave alone: the clinic's live patients and its outbox. */
async function footprint() {
  const { db } = t.server.app.db;
  const [p] = await db.select({ n: count() }).from(patients).where(eq(patients.account_id, t.clinic.account.id));
  const [e] = await db
    .select({ n: count() })
    .from(events)
    .where(and(eq(events.account_id, t.clinic.account.id)));
  return { patients: Number(p.n), events: Number(e.n) };
}

async function expectNothingWritten(send: () => Promise<Res>): Promise<Res> {
  const before = await footprint();
  const res = await send();
  expect(res.status, res.text).toBeLessThan(500);
  expect(res.headers['content-type'], res.text).toMatch(/^application\/json/);
  expect(await footprint()).toEqual(before);
  return res;
}

describe('keys named like Object.prototype members', () => {
  // Each body template holds one %K% where a prototype-named key goes; all are otherwise valid.
  const bodies: [string, string, () => string, string][] = [
    ['POST', '/patients', () => '{"first_name":"A","last_name":"B",%K%}', '%K%'],
    [
      'POST',
      '/patients',
      () => '{"first_name":"A","last_name":"B","numbers":[{"number":"07700900123","type":"mobile",%K%}]}',
      'numbers.0.%K%',
    ],
    ['POST', '/patients', () => '{"first_name":"A","last_name":"B","address":{"city":"London",%K%}}', 'address.%K%'],
    [
      'POST',
      '/patients',
      () => '{"first_name":"A","last_name":"B","communication_preferences":{%K%}}',
      'communication_preferences.%K%',
    ],
    ['PATCH', '/patients/{id}', () => '{"first_name":"C",%K%}', '%K%'],
    ['PATCH', '/patients/{id}', () => '{"address":{"city":"Paris",%K%}}', 'address.%K%'],
    [
      'POST',
      '/appointments',
      () =>
        `{"patient_id":${patientId},"practitioner_id":${refs.practitioner},"location_id":${refs.location},"appointment_type_id":${refs.type},"starts_at":"2031-01-06T09:00:00","allow_clash":true,%K%}`,
      '%K%',
    ],
    [
      'POST',
      '/invoices',
      () => `{"patient_id":${patientId},"line_items":[{"billable_item_id":${refs.billable},"quantity":1,%K%}]}`,
      'line_items.0.%K%',
    ],
    [
      'POST',
      '/payments',
      () =>
        `{"patient_id":${patientId},"payment_method_id":${refs.method},"amount":"1.00","allocations":[{"invoice_id":${refs.invoice},"amount":"1.00",%K%}]}`,
      'allocations.0.%K%',
    ],
  ];
  for (const [method, path, template, attribute] of bodies) {
    for (const name of PROTOTYPE_NAMES) {
      it(`${method} ${path} with "${name}" at ${attribute} → 422 naming it, nothing written`, async () => {
        const raw = template().replace('%K%', `${JSON.stringify(name)}:{"polluted":true}`);
        const res = await expectNothingWritten(() =>
          request(t.server, method, path.replace('{id}', String(patientId)), {
            host: t.clinic.host,
            key: t.clinic.key,
            raw,
          }),
        );
        expectError(res, 422, 'validation_failed');
        expect(Object.keys(res.body.errors)).toContain(attribute.replace('%K%', name));
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      });
    }
  }

  it('metadata keys named like prototype members are ordinary keys, except __proto__ (422)', async () => {
    const names = PROTOTYPE_NAMES.filter((n) => n !== '__proto__');
    const metadata = Object.fromEntries(names.map((n, i) => [n, `v${i}`]));
    const created = await api.post('/patients', { body: { first_name: 'Meta', last_name: 'Data', metadata } });
    expect(created.status).toBe(201);
    expect(created.body.data.metadata).toEqual(metadata);
    const removed = await api.patch(`/patients/${created.body.data.id}`, { body: { metadata: { toString: null } } });
    expect(Object.keys(removed.body.data.metadata).sort()).toEqual(names.filter((n) => n !== 'toString').sort());
    expect((await api.get(`/patients?metadata[constructor]=v0`)).body.data.map((p: { id: number }) => p.id)).toEqual([
      created.body.data.id,
    ]);

    const res = await expectNothingWritten(() =>
      api.post('/patients', { raw: '{"first_name":"A","last_name":"B","metadata":{"__proto__":"x"}}' }),
    );
    expectError(res, 422, 'validation_failed');
    expect(Object.keys(res.body.errors)).toEqual(['metadata.__proto__']);
  });

  it.each(PROTOTYPE_NAMES)('query parameter "%s" → 422 naming it', async (name) => {
    for (const path of [`/patients?${name}=1`, `/patients?${name}=eq:x`, `/patients/${patientId}?${name}=1`]) {
      const res = await api.get(path);
      expectError(res, 422, 'validation_failed');
      expect(Object.keys(res.body.errors)).toEqual([name]);
    }
    const sort = await api.get(`/patients?sort=${name}`);
    expectError(sort, 422, 'validation_failed');
    expect(Object.keys(sort.body.errors)).toEqual(['sort']);
  });

  it.each(PROTOTYPE_NAMES)('multipart field "%s" on POST /files → 422 naming it, nothing stored', async (name) => {
    const boundary = 'b0undary';
    const raw = [
      `--${boundary}\r\nContent-Disposition: form-data; name="patient_id"\r\n\r\n${patientId}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file_type"\r\n\r\ngeneric\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\nx\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const before = (await api.get(`/files?patient_id=${patientId}`)).body.meta.total;
    const res = await expectNothingWritten(() =>
      api.post('/files', { raw, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }),
    );
    expectError(res, 422, 'validation_failed');
    expect(Object.keys(res.body.errors)).toEqual([name]);
    expect((await api.get(`/files?patient_id=${patientId}`)).body.meta.total).toBe(before);
  });
});

describe('odd bodies', () => {
  it.each([100, 5_000, 100_000])('JSON nested %i levels deep → 422 validation_failed', async (depth) => {
    for (const open of ['[', '{"a":']) {
      const close = open === '[' ? ']' : '}';
      const raw = `{"first_name":"A","last_name":"B","metadata":${open.repeat(depth)}1${close.repeat(depth)}}`;
      const res = await expectNothingWritten(() => api.post('/patients', { raw }));
      expectError(res, 422, 'validation_failed');
      expect(Object.keys(res.body.errors)).toEqual(['body']);
    }
  });
  it('nesting within the bound is validated as usual', async () => {
    const res = await api.post('/patients', {
      raw: `{"first_name":"A","last_name":"B","metadata":{"a":${'['.repeat(20)}1${']'.repeat(20)}}}`,
    });
    expectError(res, 422, 'validation_failed');
    expect(Object.keys(res.body.errors)).toEqual(['metadata.a']);
  });
  it('invalid UTF-8 → 422 naming the body, nothing written', async () => {
    const raw = Buffer.concat([
      Buffer.from('{"first_name":"'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('","last_name":"B"}'),
    ]);
    const res = await expectNothingWritten(() => api.post('/patients', { raw }));
    expectError(res, 422, 'validation_failed');
    expect(Object.keys(res.body.errors)).toEqual(['body']);
  });
  it('a UTF-8 byte order mark before the JSON is accepted', async () => {
    const res = await api.post('/patients', { raw: '\uFEFF{"first_name":"Bom","last_name":"Marked"}' });
    expect(res.status).toBe(201);
    expect(res.body.data.first_name).toBe('Bom');
  });
  it.each(['1e400', '-1e400', '123456789012345678901234567890', '1.5'])(
    'a number %s where an id goes → 422 naming it',
    async (n) => {
      const res = await expectNothingWritten(() =>
        api.post('/patients', { raw: `{"first_name":"A","last_name":"B","default_location_id":${n}}` }),
      );
      expectError(res, 422, 'validation_failed');
      expect(Object.keys(res.body.errors)).toEqual(['default_location_id']);
    },
  );
  it('a 1 MB string in each 255-character field → 422 naming the field', async () => {
    for (const attr of ['first_name', 'last_name', 'preferred_name', 'email', 'custom_reference']) {
      const body = { first_name: 'A', last_name: 'B', [attr]: 'x'.repeat(1_000_000) };
      const res = await expectNothingWritten(() => api.post('/patients', { body }));
      expectError(res, 422, 'validation_failed');
      expect(Object.keys(res.body.errors)).toEqual([attr]);
    }
  });
});

describe('odd queries and paths', () => {
  it('hundreds of query parameters → 422, never a 500', async () => {
    const distinct = Array.from({ length: 300 }, (_, i) => `p${i}=1`).join('&');
    expectError(await api.get(`/patients?${distinct}`), 422, 'validation_failed');
    const repeated = Array.from({ length: 300 }, () => 'first_name=ne:x').join('&');
    const res = await api.get(`/patients?${repeated}`);
    expectError(res, 422, 'validation_failed');
    expect(Object.keys(res.body.errors)).toEqual(['query']);
  });
  it('a metadata filter on a resource without metadata → 422 naming the parameter', async () => {
    const res = await api.get('/deleted_entities?metadata[x]=1');
    expectError(res, 422, 'validation_failed');
    expect(Object.keys(res.body.errors)).toEqual(['metadata[x]']);
  });
  it.each([
    ['/v3/api/patients/1%2F2', 422],
    ['/v3/api/patients%2F1', 404],
    ['/v3/api/patients/../me', 404],
    ['/v3/api/%2E%2E/api/me', 404],
    ['/v3/api/./me', 404],
    ['/v3/api/patients/%ZZ', 422],
    ['/v3/api/patients?first_name=%ZZ', 200],
    ['/v3/api/patients/%00', 422],
  ])('%s → JSON %i', async (path, status) => {
    const res = await request(t.server, 'GET', path, { host: t.clinic.host, key: t.clinic.key });
    expect(res.status, res.text).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    if (status >= 400) expectError(res, status, res.body.code);
  });
  it('a colon after a word that is not an operator is part of an equality value', async () => {
    const created = await api.post('/patients', { body: { first_name: 'abc:def', last_name: 'Colon' } });
    const found = await api.get('/patients?first_name=abc:def');
    expect(found.status).toBe(200);
    expect(found.body.data.map((p: { id: number }) => p.id)).toEqual([created.body.data.id]);
    expect((await api.get('/patients?first_name=eq:abc:def')).body.data.map((p: { id: number }) => p.id)).toEqual([
      created.body.data.id,
    ]);
  });
});

describe('deadline', () => {
  it('a request still unanswered at REQUEST_TIMEOUT_MS gets a JSON 503 and the socket is closed', async () => {
    const slow = await startServer({ REQUEST_TIMEOUT_MS: '300' });
    try {
      const c = await newClinic(slow);
      const started = Date.now();
      const res = await new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>(
        (resolve, reject) => {
          const req = http.request(
            {
              host: '127.0.0.1',
              port: slow.port,
              method: 'POST',
              path: '/v3/api/patients',
              headers: {
                host: c.host,
                authorization: `Bearer ${c.key}`,
                'content-type': 'application/json',
                'content-length': '100',
              },
            },
            (r) => {
              let body = '';
              r.on('data', (d) => (body += d));
              r.on('end', () => resolve({ status: r.statusCode!, body, headers: r.headers }));
            },
          );
          req.on('error', reject);
          req.write('{"first_name":'); // ... and the rest never comes
        },
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(res.status).toBe(503);
      expect(JSON.parse(res.body)).toEqual({ message: expect.any(String), code: 'request_timeout' });
      expect(res.headers.connection).toBe('close');
      expect((await client(slow, c).get('/patients')).body.meta.total).toBe(0);
    } finally {
      await slow.close();
    }
  });
});
