/**
 * Guarantees proven for every route of the REST surface, walked from the route table itself (Unkey's
 * runCommonRouteTests idea): a route added tomorrow is covered the day it is added, and a route with no
 * entry in ROUTES below fails the first test until someone says how to call it.
 *
 * For every route: bad credentials are 401; a read-only key on a write is 403 before its body is read;
 * another clinic's record id is 404 and leaves that record alone; a valid call answers with its
 * documented status and a body that matches its documented schema (the test server validates every
 * response); HEAD on a GET answers like GET without a body. For restricted keys, per route: a key
 * without the route's group (or with only its read, on a write) is 403 forbidden naming the permission,
 * before the body is read; a key holding that group alone answers as the full key does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { apiKeys, events } from '../../db/schema';
import { createKey, revokeKey } from '../domain/api_keys';
import { RouteTable, type Route } from '../rest/routes';
import { GROUP_NAMES, type GroupAccess, type KeyGroup, type KeyPermissions } from '../auth/key-groups';
import { appRouter } from '../routers';
import { RESOURCES } from '../resources';
import {
  client,
  expectError,
  multipart,
  newClinic,
  request,
  startServer,
  type Clinic,
  type Res,
  type TestServer,
} from './helpers';

type Api = ReturnType<typeof client>;

/** One seeded clinic and the means to make fresh records in it. */
interface Fixture {
  clinic: Clinic;
  api: Api;
  /** A practitioner, location and type that go together, with a patient, from a seeded appointment. */
  combo: { patient_id: number; practitioner_id: number; location_id: number; appointment_type_id: number };
  billableItemId: number;
  cashMethodId: number;
  tagId: number;
}

interface Entry {
  /** Needs no key; why. */
  public?: string;
  /** The record behind {id}: made fresh (deletes, state changes), else the first one the list shows. */
  id?: (f: Fixture) => Promise<number | string>;
  query?: (f: Fixture) => Promise<string> | string;
  body?: (f: Fixture) => Promise<unknown> | unknown;
  upload?: (f: Fixture) => { raw: Buffer; headers: Record<string, string> };
  /** Why another clinic's id does not apply (the path parameter is not a record). */
  notARecord?: string;
}

const ok = (res: Res, status: number) => expect(res.status, `${res.status} ${res.text.slice(0, 300)}`).toBe(status);
const created = async (res: Promise<Res>): Promise<number> => {
  const r = await res;
  ok(r, 201);
  return r.body.data.id;
};
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

const fresh = {
  patient: (f: Fixture) => created(f.api.post('/patients', { body: { first_name: 'Route', last_name: 'Table' } })),
  /** allow_clash skips the diary, so any time works; a past one can be arrived or missed. */
  appointment: (f: Fixture, when = day(30)) =>
    created(f.api.post('/appointments', { body: { ...f.combo, starts_at: `${when}T07:00:00`, allow_clash: true } })),
  invoice: (f: Fixture, lines = 1) =>
    created(
      f.api.post('/invoices', {
        body: {
          patient_id: f.combo.patient_id,
          line_items: Array.from({ length: lines }, () => ({ billable_item_id: f.billableItemId, quantity: 1 })),
        },
      }),
    ),
  payment: (f: Fixture) =>
    created(
      f.api.post('/payments', {
        body: { patient_id: f.combo.patient_id, payment_method_id: f.cashMethodId, amount: '5.00' },
      }),
    ),
  allocation: async (f: Fixture) =>
    created(
      f.api.post('/payment_allocations', {
        body: { payment_id: await fresh.payment(f), invoice_id: await fresh.invoice(f), amount: '1.00' },
      }),
    ),
  lineItem: async (f: Fixture) =>
    (await f.api.get(`/line_items?invoice_id=${await fresh.invoice(f, 2)}`)).body.data[0].id as number,
  patientTag: async (f: Fixture) =>
    created(f.api.post('/patient_tags', { body: { patient_id: await fresh.patient(f), tag_id: f.tagId } })),
  file: (f: Fixture) => created(f.api.post('/files', fileUpload(f))),
};
const fileUpload = (f: Fixture) =>
  multipart(
    { patient_id: String(f.combo.patient_id), file_type: 'generic' },
    { name: 'route.txt', type: 'text/plain', bytes: Buffer.from('route table\n') },
  );

/** Every route, by `METHOD /path`. An empty entry: the defaults (first listed record, no query or body). */
const ROUTES: Record<string, Entry> = {
  'GET /ping': { public: 'liveness checks carry no key' },
  'GET /changelog': { public: 'the change history is published, as the OpenAPI document is' },
  'GET /me': {},
  'GET /schema': {},
  'GET /schema/{resource}': { notARecord: 'the parameter names a resource, not a record' },
  'GET /availability': {
    query: (f) =>
      `?location_id=${f.combo.location_id}&appointment_type_id=${f.combo.appointment_type_id}&from=${day(1)}&to=${day(7)}`,
  },
  'GET /appointments': {},
  'POST /appointments': { body: (f) => ({ ...f.combo, starts_at: `${day(40)}T07:00:00`, allow_clash: true }) },
  'GET /appointments/{id}': {},
  'PATCH /appointments/{id}': { id: (f) => fresh.appointment(f), body: () => ({ notes: 'moved by the route table' }) },
  'DELETE /appointments/{id}': { id: (f) => fresh.appointment(f) },
  'POST /appointments/{id}/cancel': { id: (f) => fresh.appointment(f), body: () => ({ reason: 'route table' }) },
  'POST /appointments/{id}/arrive': { id: (f) => fresh.appointment(f, day(-1)) },
  'POST /appointments/{id}/miss': { id: (f) => fresh.appointment(f, day(-1)) },
  'POST /appointments/{id}/reinstate': {
    id: async (f) => {
      const id = await fresh.appointment(f);
      ok(await f.api.post(`/appointments/${id}/cancel`, { body: {} }), 200);
      return id;
    },
  },
  'GET /patients': {},
  'POST /patients': { body: () => ({ first_name: 'Route', last_name: 'Table', metadata: { source: 'route table' } }) },
  'GET /patients/{id}': {},
  'PATCH /patients/{id}': { id: (f) => fresh.patient(f), body: () => ({ preferred_name: 'Routy' }) },
  'DELETE /patients/{id}': { id: (f) => fresh.patient(f) },
  'POST /patient_tags': { body: async (f) => ({ patient_id: await fresh.patient(f), tag_id: f.tagId }) },
  'DELETE /patient_tags/{id}': { id: (f) => fresh.patientTag(f) },
  'GET /patient_logs': {},
  'POST /patient_logs': { body: (f) => ({ patient_id: f.combo.patient_id, type: 'note', data: 'route table' }) },
  'GET /patient_logs/{id}': {},
  'GET /referral_sources': {},
  'POST /referral_sources': { body: () => ({ name: `Route table ${Math.random().toString(36).slice(2, 8)}` }) },
  'GET /referral_sources/{id}': {},
  'PATCH /referral_sources/{id}': { body: () => ({ metadata: { checked: true } }) },
  'GET /clinical_notes': {},
  'POST /clinical_notes': { body: (f) => ({ patient_id: f.combo.patient_id, title: 'Route table', body: 'Seen.' }) },
  'GET /clinical_notes/{id}': {},
  'GET /files': {},
  'POST /files': { upload: fileUpload },
  'GET /files/{id}': {},
  'GET /files/{id}/download': {},
  'PATCH /files/{id}': { id: (f) => fresh.file(f), body: () => ({ description: 'route table' }) },
  'DELETE /files/{id}': { id: (f) => fresh.file(f) },
  'GET /care_plans': {},
  'GET /care_plans/{id}': {},
  'GET /invoices': {},
  'POST /invoices': {
    body: (f) => ({
      patient_id: f.combo.patient_id,
      line_items: [{ billable_item_id: f.billableItemId, quantity: 2 }],
    }),
  },
  'GET /invoices/{id}': {},
  'PATCH /invoices/{id}': { id: (f) => fresh.invoice(f), body: () => ({ note: 'route table' }) },
  'DELETE /invoices/{id}': { id: (f) => fresh.invoice(f) },
  'GET /line_items': {},
  'POST /line_items': {
    body: async (f) => ({ invoice_id: await fresh.invoice(f), billable_item_id: f.billableItemId, quantity: 1 }),
  },
  'GET /line_items/{id}': {},
  'PATCH /line_items/{id}': { id: (f) => fresh.lineItem(f), body: () => ({ quantity: 3 }) },
  'DELETE /line_items/{id}': { id: (f) => fresh.lineItem(f) },
  'GET /payments': {},
  'POST /payments': {
    body: (f) => ({ patient_id: f.combo.patient_id, payment_method_id: f.cashMethodId, amount: '2.00' }),
  },
  'GET /payments/{id}': {},
  'DELETE /payments/{id}': { id: (f) => fresh.payment(f) },
  'GET /payment_allocations': {},
  'POST /payment_allocations': {
    body: async (f) => ({ payment_id: await fresh.payment(f), invoice_id: await fresh.invoice(f), amount: '1.00' }),
  },
  'GET /payment_allocations/{id}': {},
  'DELETE /payment_allocations/{id}': { id: (f) => fresh.allocation(f) },
  'GET /refunds': {},
  'POST /refunds': {
    body: async (f) => ({ payment_id: await fresh.payment(f), amount: '1.00', reason: 'route table' }),
  },
  'GET /refunds/{id}': {},
  'GET /addresses': {},
  'GET /addresses/{id}': {},
  'GET /appointment_types': {},
  'GET /appointment_types/{id}': {},
  'GET /billable_items': {},
  'GET /billable_items/{id}': {},
  'GET /deleted_entities': {},
  'GET /deleted_entities/{id}': {},
  'GET /events': {},
  'GET /events/{id}': { id: async (f) => (await f.api.get('/events?page_size=1')).body.data[0].id },
  'GET /form_templates': {},
  'GET /form_templates/{id}': {},
  'GET /locations': {},
  'GET /locations/{id}': {},
  'GET /modalities': {},
  'GET /modalities/{id}': {},
  'GET /numbers': {},
  'GET /numbers/{id}': {},
  'GET /patient_log_tags': {},
  'GET /patient_log_tags/{id}': {},
  'GET /payment_methods': {},
  'GET /payment_methods/{id}': {},
  'GET /practitioner_availabilities': {},
  'GET /practitioner_availabilities/{id}': {},
  'GET /practitioners': {},
  'GET /practitioners/{id}': {},
  'GET /resources': {},
  'GET /resources/{id}': {},
  'GET /tags': {},
  'GET /tags/{id}': {},
};

const table = new RouteTable(appRouter);
const routes = table.routes.map((r) => ({ name: `${r.method} ${r.path}`, route: r }));
const entryOf = (r: Route) => ROUTES[`${r.method} ${r.path}`] ?? {};
const protectedRoutes = routes.filter(({ route }) => route.protect);
const writes = routes.filter(({ route }) => route.type === 'mutation');
const recordRoutes = routes.filter(({ route }) => route.path.includes('{') && !entryOf(route).notARecord);
const reads = routes.filter(({ route }) => route.method === 'GET');

let server: TestServer;
let a: Fixture;
let b: Fixture;
const badKeys: [string, string | null][] = [];
/** Restricted keys of clinic A, by what they hold: `only` that group at that access; `without` every other group's write. */
const restricted = {
  only: {} as Record<string, string>,
  without: {} as Record<string, string>,
  readOnlyOn: {} as Record<string, string>,
};
const grants = (f: (g: KeyGroup) => GroupAccess) =>
  Object.fromEntries(GROUP_NAMES.map((g) => [g, f(g)])) as KeyPermissions;

async function fixture(clinic: Clinic): Promise<Fixture> {
  const api = client(server, clinic);
  const appt = (await api.get('/appointments?page_size=1&sort=id')).body.data[0];
  return {
    clinic,
    api,
    combo: {
      patient_id: appt.patient_id,
      practitioner_id: appt.practitioner_id,
      location_id: appt.location_id,
      appointment_type_id: appt.appointment_type_id,
    },
    billableItemId: (await api.get('/billable_items?active=true')).body.data[0].id,
    cashMethodId: (await api.get('/payment_methods?active=true&name=Cash')).body.data[0].id,
    tagId: (await api.get('/tags')).body.data[0].id,
  };
}

/** The concrete path of a route for one clinic: its own record (or a fresh one) behind {id}. */
async function pathFor(f: Fixture, route: Route): Promise<string> {
  const entry = entryOf(route);
  let path = route.path.replace('{resource}', 'patients');
  if (path.includes('{id}')) {
    const collection = route.path.split('/')[1];
    const id = entry.id
      ? await entry.id(f)
      : (await f.api.get(`/${collection}?page_size=1&sort=id`)).body?.data?.[0]?.id;
    expect(
      ['number', 'string'],
      `no ${collection} record in the seeded clinic for ${route.method} ${route.path}`,
    ).toContain(typeof id);
    path = path.replace('{id}', String(id));
  }
  return path + (entry.query ? await entry.query(f) : '');
}

async function call(f: Fixture, route: Route, path: string, key: string | null = f.clinic.key): Promise<Res> {
  const entry = entryOf(route);
  const host = f.clinic.host;
  if (entry.upload) return request(server, route.method, path, { host, key, ...entry.upload(f) });
  const body = entry.body ? await entry.body(f) : route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
  return request(server, route.method, path, { host, key, body });
}

/** What a write to clinic B would leave behind: its outbox. */
async function outboxSize(f: Fixture): Promise<number> {
  const [row] = await server.app.db.db
    .select({ n: count() })
    .from(events)
    .where(eq(events.account_id, f.clinic.account.id));
  return Number(row.n);
}

beforeAll(async () => {
  server = await startServer();
  const [ca, cb] = await Promise.all([
    newClinic(server, { seed: true }),
    newClinic(server, { seed: true, region: 'apollo', timezone: 'Australia/Sydney', currency: 'AUD' }),
  ]);
  [a, b] = [await fixture(ca), await fixture(cb)];
  const actor = { actor_type: 'user' as const, actor_id: null, actor_name: 'route table' };
  const revoked = await createKey(server.app.db, ca.account, actor, { name: 'Revoked', access: 'read_write' });
  await revokeKey(server.app.db, ca.account, actor, revoked.id);
  const expired = await createKey(server.app.db, ca.account, actor, {
    name: 'Expired',
    access: 'read_write',
    expires: '90d',
  });
  await server.app.db.transaction((tx) =>
    tx
      .update(apiKeys)
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where(eq(apiKeys.id, expired.id)),
  );
  const restrictedKey = async (name: string, permissions: KeyPermissions) =>
    (await createKey(server.app.db, ca.account, actor, { name, access: 'restricted', permissions })).secret;
  for (const g of GROUP_NAMES) {
    restricted.only[`${g}:read`] = await restrictedKey(
      `${g} read`,
      grants((h) => (h === g ? 'read' : 'none')),
    );
    restricted.only[`${g}:write`] = await restrictedKey(
      `${g} write`,
      grants((h) => (h === g ? 'write' : 'none')),
    );
    restricted.without[g] = await restrictedKey(
      `all but ${g}`,
      grants((h) => (h === g ? 'none' : 'write')),
    );
    restricted.readOnlyOn[g] = await restrictedKey(
      `${g} read, others write`,
      grants((h) => (h === g ? 'read' : 'write')),
    );
  }
  badKeys.push(
    ['no key', null],
    ['a malformed key', 'not-a-key'],
    ['a revoked key', revoked.secret],
    ['an expired key', expired.secret],
    ["another clinic's key", cb.key],
  );
}, 120_000);
afterAll(() => server.close());

describe('the route table', () => {
  it('every route has an entry, and every entry a route', () => {
    const names = routes.map((r) => r.name);
    expect(
      names.filter((n) => !(n in ROUTES)),
      'routes with no entry in ROUTES: say how to call them',
    ).toEqual([]);
    expect(
      Object.keys(ROUTES).filter((n) => !names.includes(n)),
      'entries for routes that no longer exist',
    ).toEqual([]);
  });
  it('only the routes the table calls public need no key', () => {
    expect(routes.filter(({ route }) => !route.protect).map((r) => r.name)).toEqual(
      Object.entries(ROUTES)
        .filter(([, e]) => e.public)
        .map(([n]) => n),
    );
  });
});

describe.each(protectedRoutes)('$name', ({ route }) => {
  it("no, malformed, revoked, expired or another clinic's key → 401 unauthenticated", async () => {
    const path = route.path.replace('{resource}', 'patients').replace('{id}', '1');
    for (const [label, key] of badKeys) {
      const res = await request(server, route.method, path, {
        host: a.clinic.host,
        key,
        body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      });
      expect(`${label}: ${res.status} ${res.body?.code}`).toBe(`${label}: 401 unauthenticated`);
    }
  });
});

describe.each(writes)('$name', ({ route }) => {
  it('a read-only key → 403 key_read_only before the body is read, nothing written', async () => {
    const before = await outboxSize(a);
    const path = route.path.replace('{id}', '1');
    for (const raw of ['{"not json', '[]', 'x'.repeat(64)]) {
      expectError(
        await request(server, route.method, path, {
          host: a.clinic.host,
          key: a.clinic.readOnlyKey,
          raw,
          headers: { 'content-type': 'text/plain' },
        }),
        403,
        'key_read_only',
      );
    }
    expect(await outboxSize(a)).toBe(before);
  });
});

describe.each(recordRoutes)('$name', ({ route }) => {
  it("another clinic's record → 404 not_found, and that record is unchanged", async () => {
    const theirs = await pathFor(b, route);
    const single = theirs.split('?')[0].replace(/\/(cancel|arrive|miss|reinstate|download)$/, '');
    const readable = table.match('GET', single.split('?')[0]);
    const snapshot = async () => ('route' in readable ? (await b.api.get(single)).text : null);
    const [record, outbox] = [await snapshot(), await outboxSize(b)];
    expectError(await call(a, route, theirs), 404, 'not_found');
    expect(await snapshot()).toBe(record);
    expect(await outboxSize(b)).toBe(outbox);
  });
});

describe.each(routes)('$name', ({ route }) => {
  it('a valid call answers with its documented status and schema', async () => {
    const res = await call(a, route, await pathFor(a, route));
    ok(res, route.status);
    // Security headers on every route (server/security-headers.ts): no sniffing, no framing.
    expect([
      res.headers['x-content-type-options'],
      res.headers['x-frame-options'],
      res.headers['content-security-policy'],
    ]).toEqual(['nosniff', 'DENY', "default-src 'none'; frame-ancestors 'none'"]);
    if (route.status === 204) expect(res.text).toBe('');
    else if (!route.binary) expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe.each(reads)('$name', ({ route }) => {
  it('HEAD answers like GET, without a body', async () => {
    const path = await pathFor(a, route);
    const [get, head] = [
      await call(a, route, path),
      await request(server, 'HEAD', path, { host: a.clinic.host, key: a.clinic.key }),
    ];
    // A HEAD that matches a broken GET proves nothing: the GET must succeed first.
    ok(get, route.status);
    expect(head.status).toBe(get.status);
    expect(head.text).toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
  });
});

const grouped = protectedRoutes.filter(({ route }) => route.permission !== 'none' && route.permission !== 'feed');
const groupOf = (route: Route) => route.permission as KeyGroup;
const needOf = (route: Route) => (route.type === 'query' ? 'read' : 'write');

describe('restricted keys: every route has a group', () => {
  it('each protected route names its group, none (any key) or feed, as its resource declares', () => {
    for (const { name, route } of protectedRoutes)
      expect([...GROUP_NAMES, 'none', 'feed'], name).toContain(route.permission);
    // What any key may call is the utility routes only: a new resource route cannot fall open.
    expect(protectedRoutes.filter(({ route }) => route.permission === 'none').map((r) => r.name)).toEqual([
      'GET /me',
      'GET /schema',
      'GET /schema/{resource}',
    ]);
  });
});

describe.each(grouped)('$name', ({ route }) => {
  it('a restricted key without its group → 403 forbidden naming the permission, before the body is read', async () => {
    const before = await outboxSize(a);
    const path = route.path.replace('{id}', '1');
    const scope = `${groupOf(route)}:${needOf(route)}`;
    const lacking = [
      restricted.without[groupOf(route)],
      ...(needOf(route) === 'write' ? [restricted.readOnlyOn[groupOf(route)]] : []),
    ];
    for (const key of lacking) {
      const res = await request(server, route.method, path, {
        host: a.clinic.host,
        key,
        ...(route.method === 'GET' || route.method === 'DELETE'
          ? {}
          : { raw: '{"not json', headers: { 'content-type': 'text/plain' } }),
      });
      expectError(res, 403, 'forbidden');
      expect(res.body.errors).toEqual({ permission: [scope] });
      expect(res.body.message).toContain(scope);
    }
    expect(await outboxSize(a)).toBe(before);
  });

  it('a restricted key holding only its group answers as the full key does', async () => {
    const res = await call(a, route, await pathFor(a, route), restricted.only[`${groupOf(route)}:${needOf(route)}`]);
    ok(res, route.status);
  });
});

describe.each(protectedRoutes.filter(({ route }) => route.permission === 'none' || route.permission === 'feed'))(
  '$name',
  ({ route }) => {
    it("any restricted key may call it (one entry of a feed: a key of its record's group alone)", async () => {
      const path = await pathFor(a, route);
      let key = restricted.only['billing:read'];
      if (route.permission === 'feed' && route.path.includes('{')) {
        const entry = (await call(a, route, path)).body.data;
        const group = RESOURCES[entry.entity ?? entry.data.entity].permission;
        key = restricted.only[`${group}:read`];
      }
      ok(await call(a, route, path, key), route.status);
    });
  },
);
