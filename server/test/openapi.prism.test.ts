/**
 * The served document is what the server does, as Stoplight Prism sees it: Prism in validation-proxy
 * mode in front of this server, a representative scenario through it (every list with a filter and a
 * sort, a cursor page and a metadata filter, a read of each kind of record, every write of the API,
 * and the refusals the scenario can provoke: 401, 403, 404, 409, 413, 415, 421, 422, 304), and no
 * violation: Prism reports none in any answer's `sl-violations` header. A request the scenario sends
 * invalid on purpose may break the document's input rules (Prism says so); its answer still may not.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RESOURCES } from '../resources';
import { sortableAttributes } from '../resources/describe';
import { multipart, useClinic, type Res } from './helpers';
import { root } from './support/spawn';

const MAX_BODY_BYTES = 65_536;
// Prism forwards every header but Host: the server reads the clinic from X-Forwarded-Host, one proxy hop trusted.
const t = useClinic({
  seed: true,
  env: { TRUST_PROXY: '1', SERVICE_REGIONS: 'neptune', MAX_BODY_BYTES: String(MAX_BODY_BYTES) },
});
const dir = path.join(root, 'node_modules', '.cache', `openapi-prism-${process.pid}`);

interface Violation {
  location: (string | number)[];
  severity: string;
  code?: string | number;
  message: string;
}
interface Exchange {
  name: string;
  status: number;
  code?: string;
  violations: Violation[];
  /** Sent invalid on purpose: Prism may find the request wrong, never the answer. */
  invalid: boolean;
}

const exchanges: Exchange[] = [];
let prism: ChildProcess | undefined;
let prismPort = 0;
let doc: { paths: Record<string, Record<string, unknown>> };

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

beforeAll(async () => {
  const res = await t.api.get('/openapi.json', { key: null });
  expect(res.status).toBe(200);
  doc = res.body;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  ({ child: prism, port: prismPort } = await startPrism(res.text));
}, 120_000);

afterAll(async () => {
  await stop(prism);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Prism as a validation proxy of this server for the document `text`, once it listens. */
async function startPrism(text: string): Promise<{ child: ChildProcess; port: number }> {
  const file = path.join(dir, `openapi-${randomUUID()}.json`);
  fs.writeFileSync(file, text);
  const port = await freePort();
  const bin = path.join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  const child = spawn(
    process.execPath,
    [bin, 'proxy', file, `http://127.0.0.1:${t.server.port}/v3/api`, '--host', '127.0.0.1', '--port', String(port)],
    {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start within 60 s:\n${out}`)), 60_000);
    const read = (c: Buffer) => {
      out += c.toString();
      if (/Prism is listening/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`Prism exited (${code}):\n${out}`)));
  });
  // From here on only the answers' headers matter; keep the pipes drained.
  child.stdout!.resume();
  child.stderr!.resume();
  return { child, port };
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill();
  await gone;
}

interface Options {
  body?: unknown;
  raw?: string | Buffer;
  headers?: Record<string, string>;
  key?: string | null;
  host?: string;
  invalid?: boolean;
}

/** One request through Prism (paths as the document has them, without /v3/api), its violations kept. */
function send(method: string, url: string, opts: Options = {}, port = prismPort): Promise<Res> {
  const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const headers: Record<string, string> = { 'x-forwarded-host': opts.host ?? t.clinic.host, ...opts.headers };
  const key = opts.key === undefined ? t.clinic.key : opts.key;
  if (key) headers.authorization = `Bearer ${key}`;
  if (payload !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        const header = res.headers['sl-violations'];
        const violations = header ? (JSON.parse(String(header)) as Violation[]) : [];
        const code = (body as { code?: unknown } | undefined)?.code;
        exchanges.push({
          name: `${method} ${url}`,
          status: res.statusCode!,
          code: typeof code === 'string' ? code : undefined,
          violations,
          invalid: opts.invalid ?? false,
        });
        resolve({ status: res.statusCode!, headers: res.headers, text, body });
      });
    });
    req.on('error', reject);
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer to ${method} ${url} within 20 s`)));
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

const get = (url: string, opts?: Options) => send('GET', url, opts);
const post = (url: string, body?: unknown, opts?: Options) => send('POST', url, { body, ...opts });
const patch = (url: string, body: unknown, opts?: Options) => send('PATCH', url, { body, ...opts });
const del = (url: string, opts?: Options) => send('DELETE', url, opts);

/** The answer's `data`, once its status is the one expected. */
function ok(res: Res, status: number): { id: number } & Record<string, unknown> {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  return res.body?.data;
}

it(
  'every list with a filter and a sort, a cursor page, a metadata filter, and one record of each',
  { timeout: 120_000 },
  async () => {
    for (const url of ['/ping', '/me', '/schema', '/schema/patients', '/openapi.json']) ok(await get(url), 200);
    const changelog = await get('/changelog');
    expect(changelog.status).toBe(200);
    expect((await get('/changelog', { headers: { 'if-none-match': String(changelog.headers.etag) } })).status).toBe(
      304,
    );
    const lists = Object.keys(doc.paths).filter(
      (p) => /^\/\w+$/.test(p) && doc.paths[p].get && Object.hasOwn(RESOURCES, p.slice(1)),
    );
    expect(lists.length).toBeGreaterThan(20);
    for (const list of lists) {
      const resource = RESOURCES[list.slice(1)];
      const sort = sortableAttributes(resource).at(-1) ?? 'id';
      const filter = Object.hasOwn(resource.fields, 'created_at') ? '&created_at=gte:2000-01-01T00:00:00Z' : '';
      const res = await get(`${list}?page_size=2&sort=${sort}:desc${filter}`);
      const rows = res.body?.data as { id: number | string }[] | undefined;
      expect(res.status, `${list}: ${res.text.slice(0, 200)}`).toBe(200);
      const one = rows?.[0];
      if (one && doc.paths[`${list}/{id}`]?.get) ok(await get(`${list}/${one.id}`), 200);
    }
    const first = await get('/patients?cursor=&page_size=2&last_name=ne:Nobody&metadata[vip]=eq:true');
    expect(first.status).toBe(200);
    if (first.body.links.next)
      ok(
        await get(
          new URL(first.body.links.next).pathname.replace('/v3/api', '') + new URL(first.body.links.next).search,
        ),
        200,
      );
  },
);

it('every write of the API', { timeout: 120_000 }, async () => {
  const key = randomUUID();
  const patient = ok(
    await post(
      '/patients',
      { first_name: 'Prism', last_name: 'Proxy', email: 'prism@example.com', metadata: { vip: true } },
      { headers: { 'idempotency-key': key } },
    ),
    201,
  );
  const replay = await post(
    '/patients',
    { first_name: 'Prism', last_name: 'Proxy', email: 'prism@example.com', metadata: { vip: true } },
    { headers: { 'idempotency-key': key } },
  );
  expect(replay.headers['idempotent-replayed']).toBe('true');
  ok(await patch(`/patients/${patient.id}`, { preferred_name: 'Pris', metadata: { vip: null } }), 200);

  const source = ok(await post('/referral_sources', { name: `Prism ${randomUUID().slice(0, 8)}` }), 201);
  ok(await patch(`/referral_sources/${source.id}`, { active: false }), 200);
  ok(await post('/patient_logs', { patient_id: patient.id, type: 'note', data: 'Seen through Prism' }), 201);
  const [tag] = (await get('/tags?page_size=1')).body.data;
  const placed = ok(await post('/patient_tags', { patient_id: patient.id, tag_id: tag.id }), 201);
  expect((await del(`/patient_tags/${placed.id}`)).status).toBe(204);
  ok(await post('/clinical_notes', { patient_id: patient.id, title: 'Assessment', body: 'Through the proxy' }), 201);

  const upload = multipart(
    { patient_id: String(patient.id), file_type: 'generic' },
    { name: 'note.txt', type: 'text/plain', bytes: Buffer.from('hello') },
  );
  const file = await send('POST', '/files', { raw: upload.raw, headers: upload.headers });
  expect(file.status, file.text.slice(0, 300)).toBe(201);
  ok(await patch(`/files/${file.body.data.id}`, { description: 'Renamed' }), 200);
  expect((await del(`/files/${file.body.data.id}`)).status).toBe(204);

  const [like] = (await get('/appointments?page_size=1&sort=id')).body.data;
  const slots = (
    await get(
      `/availability?location_id=${like.location_id}&appointment_type_id=${like.appointment_type_id}&practitioner_id=${like.practitioner_id}&limit=3`,
    )
  ).body.data;
  const book = (slot: Record<string, unknown>) => ({
    patient_id: patient.id,
    ...pick(slot, ['practitioner_id', 'location_id', 'appointment_type_id', 'resource_id', 'starts_at']),
  });
  const booked = ok(await post('/appointments', book(slots[0])), 201);
  ok(await patch(`/appointments/${booked.id}`, { notes: 'Through Prism' }), 200);
  ok(await post(`/appointments/${booked.id}/cancel`, { reason: 'Prism' }), 200);
  ok(await post(`/appointments/${booked.id}/reinstate`), 200);
  // Arrive and miss are for appointments that have started: the slot's weekday and time, weeks ago.
  const weeksAgo = (weeks: number) => ({
    ...book(slots[0]),
    starts_at: shiftDays(String(slots[0].starts_at), -7 * weeks),
    allow_clash: true,
  });
  ok(await post(`/appointments/${ok(await post('/appointments', weeksAgo(4)), 201).id}/arrive`), 200);
  ok(await post(`/appointments/${ok(await post('/appointments', weeksAgo(5)), 201).id}/miss`), 200);
  expect((await del(`/appointments/${booked.id}`)).status).toBe(204);

  const [item] = (await get('/billable_items?active=true&page_size=1')).body.data;
  const [method] = (await get('/payment_methods?page_size=5')).body.data.filter(
    (m: { type?: string }) => m.type !== 'card',
  );
  const invoice = ok(
    await post('/invoices', { patient_id: patient.id, line_items: [{ billable_item_id: item.id, quantity: 1 }] }),
    201,
  );
  ok(await patch(`/invoices/${invoice.id}`, { note: 'Through Prism' }), 200);
  const line = ok(await post('/line_items', { invoice_id: invoice.id, billable_item_id: item.id, quantity: 1 }), 201);
  ok(await patch(`/line_items/${line.id}`, { quantity: 2 }), 200);
  expect((await del(`/line_items/${line.id}`)).status).toBe(204);
  const payment = ok(
    await post('/payments', { patient_id: patient.id, payment_method_id: method.id, amount: '5.00' }),
    201,
  );
  const allocation = ok(
    await post('/payment_allocations', { payment_id: payment.id, invoice_id: invoice.id, amount: '2.00' }),
    201,
  );
  expect((await del(`/payment_allocations/${allocation.id}`)).status).toBe(204);
  ok(await post('/refunds', { payment_id: payment.id, amount: '1.00' }), 201);
  const other = ok(
    await post('/payments', { patient_id: patient.id, payment_method_id: method.id, amount: '3.00' }),
    201,
  );
  expect((await del(`/payments/${other.id}`)).status).toBe(204);
  expect((await del(`/invoices/${invoice.id}?void_payments=true`)).status).toBe(204);
  expect((await del(`/patients/${patient.id}`)).status).toBe(204);

  const writes = Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.keys(ops)
      .filter((m) => m !== 'get')
      .map((m) => `${m.toUpperCase()} ${p}`),
  );
  const sent = new Set(exchanges.map((e) => e.name.replace(/\?.*$/, '').replace(/\/\d+(?=\/|$)/g, '/{id}')));
  expect(writes.filter((w) => !sent.has(w))).toEqual([]);
});

it('the refusals the scenario can provoke', { timeout: 60_000 }, async () => {
  const refused = async (res: Res, status: number, code: string) => {
    expect(`${res.status} ${res.body?.code}`, res.text.slice(0, 300)).toBe(`${status} ${code}`);
  };
  await refused(await get('/patients', { key: null, invalid: true }), 401, 'unauthenticated');
  await refused(
    await post('/patients', { first_name: 'A', last_name: 'B' }, { key: t.clinic.readOnlyKey }),
    403,
    'key_read_only',
  );
  await refused(await get('/patients/9007199254740991'), 404, 'not_found');
  await refused(await get('/patients', { host: 'nobody.neptune.localhost' }), 404, 'not_found');
  await refused(
    await get('/patients', { host: `${t.clinic.account.subdomain}.apollo.localhost` }),
    421,
    'wrong_region',
  );
  await refused(
    await post('/patients', { first_name: 'A', last_name: 'B', email: 'not an email' }, { invalid: true }),
    422,
    'validation_failed',
  );
  await refused(await get('/patients?page_size=1000', { invalid: true }), 422, 'validation_failed');
  await refused(await get('/patients?sort=nonsense', { invalid: true }), 422, 'validation_failed');
  await refused(
    await get('/availability?location_id=9007199254740991&appointment_type_id=1'),
    422,
    'location_not_found',
  );
  await refused(
    await send('POST', '/patients', { raw: 'first_name=A', headers: { 'content-type': 'text/plain' }, invalid: true }),
    415,
    'unsupported_media_type',
  );
  await refused(
    await post('/patients', { first_name: 'A', last_name: 'B', note: 'x'.repeat(MAX_BODY_BYTES) }, { invalid: true }),
    413,
    'payload_too_large',
  );
  const key = randomUUID();
  ok(await post('/patients', { first_name: 'Once', last_name: 'Only' }, { headers: { 'idempotency-key': key } }), 201);
  await refused(
    await post('/patients', { first_name: 'Twice', last_name: 'Only' }, { headers: { 'idempotency-key': key } }),
    422,
    'idempotency_key_reused',
  );
  const [like] = (await get('/appointments?page_size=1&sort=id')).body.data;
  const [slot] = (
    await get(
      `/availability?location_id=${like.location_id}&appointment_type_id=${like.appointment_type_id}&practitioner_id=${like.practitioner_id}&limit=1`,
    )
  ).body.data;
  const body = {
    patient_id: like.patient_id,
    ...pick(slot, ['practitioner_id', 'location_id', 'appointment_type_id', 'resource_id', 'starts_at']),
  };
  ok(await post('/appointments', body), 201);
  await refused(await post('/appointments', body), 409, 'slot_unavailable');
});

it('Prism finds no violation in any answer, and none in a request but those sent invalid on purpose', () => {
  expect(exchanges.length).toBeGreaterThan(100);
  const described = (e: Exchange, v: Violation) =>
    `${e.name} → ${e.status}${e.code ? ` ${e.code}` : ''}: ${v.location.join('.')} ${v.message}`;
  expect(
    exchanges.flatMap((e) =>
      e.violations.filter((v) => v.location[0] !== 'request' || !e.invalid).map((v) => described(e, v)),
    ),
  ).toEqual([]);
  // And Prism did read the requests: each sent invalid on purpose breaks a rule the document states.
  const invalid = exchanges.filter((e) => e.invalid);
  expect(invalid).toHaveLength(6);
  expect(invalid.filter((e) => !e.violations.some((v) => v.location[0] === 'request')).map((e) => e.name)).toEqual([]);
});

/** A wall time `days` later (earlier when negative), the time of day kept. */
function shiftDays(wall: string, days: number): string {
  const date = new Date(`${wall.slice(0, 10)}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10) + wall.slice(10);
}

it(
  'Prism does read the answers: with a document that types first_name an integer, reading a patient is a violation',
  { timeout: 90_000 },
  async () => {
    const wrong = structuredClone(doc) as unknown as {
      components: { schemas: { Patient: { properties: Record<string, unknown> } } };
    };
    wrong.components.schemas.Patient.properties.first_name = { type: 'integer' };
    const control = await startPrism(JSON.stringify(wrong));
    try {
      const before = exchanges.length;
      const [one] = (await t.api.get('/patients?page_size=1')).body.data;
      expect((await send('GET', `/patients/${one.id}`, {}, control.port)).status).toBe(200);
      const [read] = exchanges.splice(before);
      expect(read.violations.map((v) => `${v.location.join('.')}`)).toEqual(['response.body.data.first_name']);
    } finally {
      await stop(control.child);
    }
  },
);

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, o[k]]));
}
