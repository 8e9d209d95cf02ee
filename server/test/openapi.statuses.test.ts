/**
 * Every status the server answers an operation with is in the served document for that operation, with
 * the code it carried, and the body validates against the documented schema. Each route of the route
 * table meets the refusals every route can meet (unknown clinic, no key, read-only key, unknown record,
 * unknown parameter or attribute, a body not JSON or too large, a region served elsewhere, the rate
 * limit), a valid read, and the domain's refusals for a representative set (the availability search's
 * 422s, lifecycle and billing 409s, idempotency). And the other way: each client-error status a route
 * documents that these probes can provoke, they do provoke.
 */
import { createKey } from '../domain/api_keys';
import { beforeAll, describe, expect, it } from 'vitest';
import { RouteTable, type Route } from '../rest/routes';
import { appRouter } from '../routers';
import {
  multipart,
  newClinic,
  request,
  startServer,
  useClinic,
  type Clinic,
  type Res,
  type TestServer,
} from './helpers';
import { calendarFixture, D } from './scheduling-fixture';
import { OpenApiDoc, type Doc } from './support/openapi-doc';

const MAX_BODY_BYTES = 4096;
// One region served here, so another region's clinic host is 421.
const t = useClinic({ seed: true, env: { SERVICE_REGIONS: 'neptune', MAX_BODY_BYTES: String(MAX_BODY_BYTES) } });
const routes = new RouteTable(appRouter).routes;
const nameOf = (r: Route) => `${r.method} ${r.path}`;
/** Statuses answered, by operation. */
const seen = new Map<string, Set<number>>(routes.map((r) => [nameOf(r), new Set()]));
let doc: OpenApiDoc;

/** Checks one answer against the document and remembers its status. */
function answered(name: string, res: Res): void {
  const op = doc.op(name);
  expect(Object.keys(op.responses), `${name} answered ${res.status} ${res.text.slice(0, 200)}`).toContain(
    String(res.status),
  );
  if (res.status >= 400)
    expect(doc.resolve(op.responses[String(res.status)]).description, `${name} ${res.status}`).toContain(
      `\`${res.body?.code}\``,
    );
  const pointer = doc.responsePointer(name, res.status);
  if (pointer && res.headers['content-type']?.startsWith('application/json'))
    expect(doc.problems(pointer, res.body), `${name} ${res.status} ${res.text.slice(0, 300)}`).toEqual([]);
  seen.get(name)?.add(res.status);
}

// The largest id the API takes (2^53 − 1, bigint columns): valid, and no such record.
const UNKNOWN_ID = '9007199254740991';
const pathOf = (r: Route, id = UNKNOWN_ID) =>
  r.path.replace('{id}', r.path.startsWith('/events/') ? 'evt_unknown' : id).replace('{resource}', 'unknown_resource');
const hasBody = (r: Route) => r.method === 'POST' || r.method === 'PATCH';

/** A request to a route of clinic `c`, as `key`, with a body where the method takes one. */
function call(
  server: TestServer,
  c: Clinic,
  r: Route,
  opts: {
    path?: string;
    key?: string | null;
    host?: string;
    body?: unknown;
    raw?: string | Buffer;
    headers?: Record<string, string>;
  } = {},
) {
  const body = opts.raw === undefined && opts.body === undefined && hasBody(r) ? {} : opts.body;
  return request(server, r.method, opts.path ?? pathOf(r), {
    host: opts.host ?? c.host,
    key: opts.key === undefined ? c.key : opts.key,
    body,
    raw: opts.raw,
    headers: opts.headers,
  });
}

/** A key that may call only from a network this test is not on: every protected route answers 403 forbidden. */
let elsewhereKey = '';

beforeAll(async () => {
  elsewhereKey = (
    await createKey(
      t.server.app.db,
      t.clinic.account,
      { actor_type: 'user', actor_id: null, actor_name: 'test' },
      { name: 'Elsewhere', access: 'read_write', allowed_ips: ['192.0.2.0/24'] },
    )
  ).secret;
  const res = await request(t.server, 'GET', '/openapi.json');
  expect(res.status).toBe(200);
  doc = new OpenApiDoc(res.body as Doc);
});

describe('every route, the refusals any route can meet', () => {
  it.each(routes.map((r) => [nameOf(r), r] as const))('%s', async (name, r) => {
    const { server, clinic } = t;
    const probes: Promise<Res>[] = [
      call(server, clinic, r, { host: 'nobody.neptune.localhost' }),
      call(server, clinic, r, { host: `${clinic.account.subdomain}.apollo.localhost` }),
    ];
    if (r.protect) probes.push(call(server, clinic, r, { key: null }), call(server, clinic, r, { key: elsewhereKey }));
    if (r.type === 'mutation') probes.push(call(server, clinic, r, { key: clinic.readOnlyKey }));
    if (r.path.includes('{')) probes.push(call(server, clinic, r));
    // An unknown parameter, or an unknown attribute in the body (an upload without its fields).
    if (r.multipart) probes.push(call(server, clinic, r, multipart({})));
    else if (hasBody(r)) probes.push(call(server, clinic, r, { body: { not_an_attribute: 1 } }));
    else probes.push(call(server, clinic, r, { path: `${pathOf(r)}?not_a_parameter=1` }));
    if (hasBody(r)) {
      probes.push(
        call(server, clinic, r, {
          raw: 'x',
          headers: { 'content-type': r.multipart ? 'application/json' : 'text/plain' },
        }),
      );
      probes.push(call(server, clinic, r, { raw: `{"a":"${'x'.repeat(MAX_BODY_BYTES)}"}` }));
    }
    for (const res of await Promise.all(probes)) answered(name, res);
  });
});

describe('every route, over the rate limit', () => {
  let server: TestServer;
  let clinic: Clinic;
  beforeAll(async () => {
    // The budgets are fixed one-minute windows: on a clock that moves, a minute turning between spending
    // them and the probes gave a route a fresh budget (PATCH /patients/{id} went unrefused once in a full run).
    const frozen = Date.now();
    server = await startServer(
      {
        RATE_LIMIT_REST_PER_MINUTE: '1',
        RATE_LIMIT_UNAUTH_PER_MINUTE: '1',
        RATE_LIMIT_DOCS_PER_MINUTE: '1',
      },
      { now: () => frozen },
    );
    clinic = await newClinic(server);
    // Each budget spent once: the clinic's, and this address's (public routes, unknown keys).
    await request(server, 'GET', '/me', { host: clinic.host, key: clinic.key });
    await request(server, 'GET', '/ping', { host: clinic.host });
    // And the public documents' own budget (the changelog read without a key): one read spends it here,
    // without spending the address's shared bucket for the other servers of the suite (their limit is 60).
    await request(server, 'GET', '/changelog', { host: clinic.host });
  }, 60_000);
  it('answers every route 429, documented', async () => {
    for (const r of routes) answered(nameOf(r), await call(server, clinic, r, { key: r.protect ? clinic.key : null }));
    await server.close();
  });
});

describe('valid reads', () => {
  it('every read answers its documented status with a body its documented schema accepts', async () => {
    const { api } = t;
    for (const r of routes.filter((x) => x.method === 'GET')) {
      let path = r.path.replace('{resource}', 'patients');
      if (path.includes('{id}')) {
        const list = (await api.get(`/${path.split('/')[1]}?page_size=1`)).body;
        if (!list?.data?.length) continue;
        path = path.replace('{id}', String(list.data[0].id));
      }
      if (r.path === '/availability') continue;
      answered(nameOf(r), await api.get(path));
    }
  });
});

describe("the domain's refusals", () => {
  it('GET /availability: its 422 codes', async () => {
    const clinic = await newClinic(t.server);
    const cal = await calendarFixture(t.server, clinic);
    const search = (q: Record<string, string | number>) =>
      request(
        t.server,
        'GET',
        `/availability?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`,
        { host: clinic.host, key: clinic.key },
      );
    const day = { from: D(0), to: D(0) };
    const cases = [
      { location_id: cal.siteB, appointment_type_id: cal.followUp, visibility: 'online', ...day },
      { location_id: cal.siteA, appointment_type_id: cal.unassigned, ...day },
      { location_id: 999999, appointment_type_id: cal.followUp, ...day },
      { location_id: cal.siteA, appointment_type_id: 999999, ...day },
      { location_id: cal.siteA, appointment_type_id: cal.followUp, practitioner_id: 999999, ...day },
      { location_id: cal.siteA, appointment_type_id: cal.retired, ...day },
      { location_id: cal.siteA, appointment_type_id: cal.followUp, ...day },
    ];
    const codes = [];
    for (const q of cases) {
      const res = await search(q);
      answered('GET /availability', res);
      codes.push(res.status === 200 ? 200 : res.body.code);
    }
    expect(codes).toEqual([
      'not_online_bookable',
      'availability_not_configured',
      'location_not_found',
      'appointment_type_not_found',
      'practitioner_not_found',
      'invalid_input',
      200,
    ]);
  });

  it('writes: lifecycle, billing and tag rules, idempotency keys', async () => {
    const { api } = t;
    const appt = (await api.get('/appointments?page_size=1&sort=id')).body.data[0];
    const combo = {
      patient_id: appt.patient_id,
      practitioner_id: appt.practitioner_id,
      location_id: appt.location_id,
      appointment_type_id: appt.appointment_type_id,
    };
    const booked = (
      await api.post('/appointments', { body: { ...combo, starts_at: `${D(60)}T07:00:00`, allow_clash: true } })
    ).body.data.id;
    const log: [string, Res][] = [];
    const run = async (name: string, res: Promise<Res>) => log.push([name, await res]);
    await run('POST /appointments', api.post('/appointments', { body: { ...combo, starts_at: `${D(60)}T07:00:00` } }));
    await run('POST /appointments/{id}/cancel', api.post(`/appointments/${booked}/cancel`));
    await run('POST /appointments/{id}/cancel', api.post(`/appointments/${booked}/cancel`));
    await run('POST /appointments/{id}/miss', api.post(`/appointments/${booked}/miss`));
    const item = (await api.get('/billable_items?active=true')).body.data[0].id;
    const invoice = (
      await api.post('/invoices', {
        body: { patient_id: appt.patient_id, line_items: [{ billable_item_id: item, quantity: 1 }] },
      })
    ).body.data;
    const line = (await api.get(`/line_items?invoice_id=${invoice.id}`)).body.data[0].id;
    await run('DELETE /line_items/{id}', api.delete(`/line_items/${line}`));
    await run('DELETE /invoices/{id}', api.delete(`/invoices/${invoice.id}`));
    await run('DELETE /invoices/{id}', api.delete(`/invoices/${invoice.id}`));
    const tag = (await api.get('/tags')).body.data[0].id;
    const patient = (await api.post('/patients', { body: { first_name: 'Tagged', last_name: 'Twice' } })).body.data.id;
    await run('POST /patient_tags', api.post('/patient_tags', { body: { patient_id: patient, tag_id: tag } }));
    await run('POST /patient_tags', api.post('/patient_tags', { body: { patient_id: patient, tag_id: tag } }));
    await run(
      'POST /patients',
      api.post('/patients', { body: { first_name: 'Half', last_name: 'Referred', referral_source_type: 'patient' } }),
    );
    await run(
      'POST /patients',
      api.post('/patients', {
        body: { first_name: 'Key', last_name: 'Long' },
        headers: { 'idempotency-key': 'k'.repeat(256) },
      }),
    );
    await run(
      'POST /patients',
      api.post('/patients', {
        body: { first_name: 'Key', last_name: 'Once' },
        headers: { 'idempotency-key': 'statuses-1' },
      }),
    );
    await run(
      'POST /patients',
      api.post('/patients', {
        body: { first_name: 'Key', last_name: 'Twice' },
        headers: { 'idempotency-key': 'statuses-1' },
      }),
    );
    for (const [name, res] of log) answered(name, res);
    expect(log.map(([name, res]) => `${name} ${res.status} ${res.body?.code ?? ''}`.trim())).toEqual([
      'POST /appointments 409 slot_unavailable',
      'POST /appointments/{id}/cancel 200',
      'POST /appointments/{id}/cancel 409 appointment_rule',
      'POST /appointments/{id}/miss 409 appointment_rule',
      'DELETE /line_items/{id} 409 billing_rule',
      'DELETE /invoices/{id} 204',
      'DELETE /invoices/{id} 409 billing_rule',
      'POST /patient_tags 201',
      'POST /patient_tags 409 conflict',
      'POST /patients 422 referral_source_incomplete',
      'POST /patients 422 idempotency_key_invalid',
      'POST /patients 201',
      'POST /patients 422 idempotency_key_reused',
    ]);
  });
});

describe('and the other way', () => {
  it('each client-error status a route documents, the probes provoked', () => {
    const PROBED = [401, 403, 404, 413, 415, 421, 422, 429];
    const unseen = routes.flatMap((r) => {
      const documented = Object.keys(doc.op(nameOf(r)).responses)
        .map(Number)
        .filter((s) => PROBED.includes(s));
      return documented.filter((s) => !seen.get(nameOf(r))!.has(s)).map((s) => `${nameOf(r)} ${s}`);
    });
    expect(unseen).toEqual([]);
  });
});
