/**
 * What an integrator copies stays exact. A seeded random workload of creates, updates, deletes and voids
 * over every resource with writes (bookings, reschedules, cancellations, patient deletes, invoice and
 * payment voids), sent through two server processes, while the webhook receiver fails for a stretch and
 * the endpoint is disabled and enabled again. Three mirrors follow it as README ("Keeping a copy of a
 * clinic") says: one from verified webhooks (de-duplicated by webhook-id), one from the events feed
 * (resumed from its stored links.next, in pieces), one from polling (updated_at + deleted_entities). Each
 * then equals the REST listings, record for record.
 *
 * The workload's operations are keyed by resource, and every resource declared with writes must have
 * some: a new one fails here until the workload covers it. MIRROR_SEED replays a run (the seed is in
 * every failure message); MIRROR_STEPS makes it longer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { isEventType } from '../events/types';
import { followersOf, RESOURCES } from '../resources';
import type { Resource } from '../resources/define';
import { billingFixture, type Billing } from './billing-fixture';
import { multipart, newClinic, request, startServer, type Clinic, type Res, type TestServer } from './helpers';
import { calendarFixture, D, type Calendar } from './scheduling-fixture';
import { clinicTag } from './support/tags';
import { portalData, signedIn, type PortalClient } from './support/portal';
import { spawnServer, type Spawned } from './support/spawn';

const SEED = Number(process.env.MIRROR_SEED ?? Math.floor(Math.random() * 2 ** 31));
const STEPS = Number(process.env.MIRROR_STEPS ?? 160);

type Rec = Record<string, unknown> & { id: number };
type Mirror = Map<string, Map<number, Rec>>;

let local: TestServer;
let other: Spawned;
let clinic: Clinic;
let cal: Calendar;
let bill: Billing;
let tagId: number;
let staff: PortalClient;
let endpointId: number;

/** Resources a mirror keeps: every listed one but the feeds themselves. */
const MIRRORED = (Object.values(RESOURCES) as Resource[])
  .filter((r) => r.list && !['events', 'deleted_entities'].includes(r.name))
  .map((r) => r.name);
/**
 * Records with no events of their own, announced through their parent (README): on any event of the
 * parent, its children are listed again by the parent's id.
 */
const THROUGH: Record<string, { parent: string; column: string }> = {
  line_items: { parent: 'invoices', column: 'invoice_id' },
  refunds: { parent: 'payments', column: 'payment_id' },
};

// ---- the receiver: verifies, fails first attempts while "down", keeps each webhook-id once ----
let secret = '';
let down = false;
const failedOnce = new Set<string>();
const delivered = new Map<string, { type: string; data: { entity: string; id: number } }>();
const arrivals: string[] = [];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString();
    const id = String(req.headers['webhook-id']);
    try {
      new Webhook(secret).verify(body, req.headers as Record<string, string>);
    } catch {
      res.statusCode = 400;
      return res.end();
    }
    if (down && !failedOnce.has(id)) {
      failedOnce.add(id);
      res.statusCode = 503;
      return res.end();
    }
    if (!delivered.has(id)) {
      delivered.set(id, JSON.parse(body));
      arrivals.push(id);
    }
    res.statusCode = 204;
    res.end();
  });
});

// ---- the API, through either process ----
const port = (rand: () => number) => (rand() < 0.5 ? local.port : other.port);
const call = (p: number, method: string, path: string, opts: Parameters<typeof request>[3] = {}): Promise<Res> =>
  request({ port: p } as TestServer, method, path, { host: clinic.host, key: clinic.key, ...opts });
const get = (path: string) => call(local.port, 'GET', path);
const relative = (link: string) => link.replace(/^https?:\/\/[^/]+\/v3\/api/, '');

/** Every record of a list query, by cursor. */
async function all(path: string): Promise<Rec[]> {
  const out: Rec[] = [];
  let next = `${path}${path.includes('?') ? '&' : '?'}page_size=100&cursor=`;
  for (;;) {
    const page = await get(next);
    if (page.status !== 200) throw new Error(`${next}: ${page.status} ${page.text}`);
    out.push(...page.body.data);
    if (!page.body.meta.has_more) return out;
    next = relative(page.body.links.next);
  }
}

const listing = async (): Promise<Mirror> =>
  new Map(
    await Promise.all(MIRRORED.map(async (r) => [r, new Map((await all(`/${r}`)).map((x) => [x.id, x]))] as const)),
  );

// ---- applying events as README says ----
async function applyEvent(mirror: Mirror, event: { type: string; data: { entity: string; id: number } }) {
  const { entity, id } = event.data;
  if (mirror.has(entity)) {
    const res = await get(`/${entity}/${id}`);
    if (res.status === 200) mirror.get(entity)!.set(id, res.body.data);
    else if (res.status === 404) mirror.get(entity)!.delete(id);
    else throw new Error(`GET /${entity}/${id}: ${res.status}`);
  }
  for (const [child, { parent, column }] of Object.entries(THROUGH)) {
    if (parent !== entity) continue;
    const kept = mirror.get(child)!;
    for (const [k, v] of kept) if (v[column] === id) kept.delete(k);
    for (const row of await all(`/${child}?${column}=${id}`)) kept.set(row.id, row);
  }
  // What belongs to a deleted record and has no .deleted event of its own goes with the parent's.
  if (event.type === `${entity}.deleted`) {
    for (const r of followersOf(entity)) {
      if (isEventType(`${r.name}.deleted`) || !mirror.has(r.name)) continue;
      const kept = mirror.get(r.name)!;
      for (const [k, v] of kept) if (v[r.follows!.column] === id) kept.delete(k);
    }
  }
}

/** The webhook mirror: the deliveries that arrived since the last call, in arrival order. */
let applied = 0;
async function followWebhooks(mirror: Mirror) {
  await local.app.webhooks.drain();
  for (; applied < arrivals.length; applied++) await applyEvent(mirror, delivered.get(arrivals[applied])!);
}

/** The feed mirror: from the stored links.next, a few events a page. */
let feedNext = '';
async function followFeed(mirror: Mirror) {
  for (;;) {
    const page = await get(feedNext);
    expect(page.status, page.text).toBe(200);
    for (const event of page.body.data) await applyEvent(mirror, event);
    feedNext = relative(page.body.links.next);
    if (!page.body.meta.has_more) return;
  }
}

/** The polling mirror: what changed since the last sync (a few seconds of overlap), then the deletions. */
let polledSince = '';
async function poll(mirror: Mirror) {
  const startedAt = new Date().toISOString();
  const since = new Date(Date.parse(polledSince) - 5_000).toISOString();
  for (const r of MIRRORED) {
    const filter = Object.hasOwn(RESOURCES[r].filters, 'updated_at') ? `?updated_at=gte:${since}` : '';
    const kept = mirror.get(r)!;
    if (!filter) kept.clear();
    for (const row of await all(`/${r}${filter}`)) kept.set(row.id, row);
  }
  for (const gone of await all(`/deleted_entities?deleted_at=gte:${since}`))
    mirror.get(gone.entity as string)?.delete(gone.entity_id as number);
  polledSince = startedAt;
}

/** Embeds follow their own resource: an appointment's patient is rebuilt from the mirror's patients. */
function withEmbeds(mirror: Mirror): Mirror {
  const patients = mirror.get('patients')!;
  const appointments = new Map(
    [...mirror.get('appointments')!].map(([id, a]) => {
      const p = patients.get(a.patient_id as number);
      const embed = p
        ? {
            id: p.id,
            first_name: p.first_name,
            last_name: p.last_name,
            preferred_name: p.preferred_name,
            name: `${p.preferred_name || p.first_name} ${p.last_name}`,
          }
        : null;
      return [id, { ...a, patient: embed }];
    }),
  );
  return new Map([...mirror, ['appointments', appointments]]);
}

/** Which records differ, and in which attributes (for the failure message). */
function differences(got: Rec[], want: Rec[]): string {
  const byId = new Map(got.map((g) => [g.id, g]));
  const ids = new Set([...got.map((g) => g.id), ...want.map((w) => w.id)]);
  return [...ids]
    .flatMap((id) => {
      const g = byId.get(id);
      const w = want.find((x) => x.id === id);
      if (!g || !w) return [`${id} ${g ? 'extra' : 'missing'}`];
      const keys = Object.keys(w).filter((k) => JSON.stringify(w[k]) !== JSON.stringify(g[k]));
      return keys.length ? [`${id}: ${keys.join(', ')}`] : [];
    })
    .join('; ');
}

// ---- the workload ----
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface State {
  patients: number[];
  appointments: number[];
  invoices: { id: number; patient_id: number; lines: number[] }[];
  payments: { id: number; patient_id: number }[];
  allocations: number[];
  files: number[];
  placements: number[];
  referralSources: number[];
}
const state: State = {
  patients: [],
  appointments: [],
  invoices: [],
  payments: [],
  allocations: [],
  files: [],
  placements: [],
  referralSources: [],
};

type Op = (rand: () => number, pick: <T>(xs: T[]) => T | undefined) => Promise<Res | null>;
const drop = <T>(xs: T[], x: T) => xs.splice(xs.indexOf(x), 1);
const slot = (rand: () => number) =>
  `${D(7 + Math.floor(rand() * 40))}T${String(8 + Math.floor(rand() * 9)).padStart(2, '0')}:${rand() < 0.5 ? '00' : '30'}:00`;
const pastSlot = (rand: () => number) => {
  const d = new Date(Date.now() - (7 + Math.floor(rand() * 20)) * 86_400_000).toISOString().slice(0, 10);
  return `${d}T${String(8 + Math.floor(rand() * 9)).padStart(2, '0')}:00:00`;
};

/** Operations by resource: each resource declared with writes has at least one (checked below). */
const OPS: Record<string, Op[]> = {
  patients: [
    async (rand) => {
      const res = await call(port(rand), 'POST', '/patients', {
        body: {
          first_name: `P${Math.floor(rand() * 1000)}`,
          last_name: 'Mirror',
          ...(rand() < 0.6 ? { numbers: [{ number: '07700 900123', type: 'mobile' }] } : {}),
          ...(rand() < 0.5 ? { address: { line_1: '1 High St', city: 'Leeds' } } : {}),
        },
      });
      if (res.status === 201) state.patients.push(res.body.data.id);
      return res;
    },
    async (rand, pick) => {
      const id = pick(state.patients);
      if (!id) return null;
      const body =
        rand() < 0.5
          ? { first_name: `R${Math.floor(rand() * 1000)}`, preferred_name: rand() < 0.3 ? 'Pref' : null }
          : {
              numbers: rand() < 0.5 ? [] : [{ number: '07700 900124', type: 'home' }],
              address: rand() < 0.5 ? null : { city: 'York' },
            };
      return call(port(rand), 'PATCH', `/patients/${id}`, { body });
    },
    async (rand, pick) => {
      const id = pick(state.patients);
      if (!id || state.patients.length < 4) return null;
      const res = await call(port(rand), 'DELETE', `/patients/${id}`);
      if (res.status === 204) drop(state.patients, id);
      return res;
    },
  ],
  patient_logs: [
    async (rand, pick) => {
      const id = pick(state.patients);
      return id
        ? call(port(rand), 'POST', '/patient_logs', { body: { patient_id: id, type: 'note', data: 'Seen' } })
        : null;
    },
  ],
  clinical_notes: [
    async (rand, pick) => {
      const id = pick(state.patients);
      return id
        ? call(port(rand), 'POST', '/clinical_notes', { body: { patient_id: id, title: 'Visit', body: 'Fine.' } })
        : null;
    },
  ],
  files: [
    async (rand, pick) => {
      const id = pick(state.patients);
      if (!id) return null;
      const form = multipart(
        { patient_id: String(id), file_type: 'generic' },
        { name: 'a.txt', type: 'text/plain', bytes: Buffer.from('a') },
      );
      const res = await call(port(rand), 'POST', '/files', form);
      if (res.status === 201) state.files.push(res.body.data.id);
      return res;
    },
    async (rand, pick) => {
      const id = pick(state.files);
      return id
        ? call(port(rand), 'PATCH', `/files/${id}`, { body: { description: `d${Math.floor(rand() * 99)}` } })
        : null;
    },
    async (rand, pick) => {
      const id = pick(state.files);
      if (!id) return null;
      const res = await call(port(rand), 'DELETE', `/files/${id}`);
      if (res.status === 204) drop(state.files, id);
      return res;
    },
  ],
  patient_tags: [
    async (rand, pick) => {
      const id = pick(state.patients);
      if (!id) return null;
      const res = await call(port(rand), 'POST', '/patient_tags', { body: { patient_id: id, tag_id: tagId } });
      if (res.status === 201) state.placements.push(res.body.data.id);
      return res;
    },
    async (rand, pick) => {
      const id = pick(state.placements);
      if (!id) return null;
      const res = await call(port(rand), 'DELETE', `/patient_tags/${id}`);
      drop(state.placements, id);
      return res;
    },
  ],
  appointments: [
    async (rand, pick) => {
      const id = pick(state.patients);
      if (!id) return null;
      const res = await call(port(rand), 'POST', '/appointments', {
        body: {
          patient_id: id,
          practitioner_id: cal.p1,
          location_id: cal.siteA,
          appointment_type_id: cal.followUp,
          starts_at: rand() < 0.3 ? pastSlot(rand) : slot(rand),
          allow_clash: true,
        },
      });
      if (res.status === 201) state.appointments.push(res.body.data.id);
      return res;
    },
    async (rand, pick) => {
      const id = pick(state.appointments);
      if (!id) return null;
      const body =
        rand() < 0.5 ? { notes: `n${Math.floor(rand() * 99)}` } : { starts_at: slot(rand), allow_clash: true };
      return call(port(rand), 'PATCH', `/appointments/${id}`, { body });
    },
    async (rand, pick) => {
      const id = pick(state.appointments);
      if (!id) return null;
      const action = pick(['cancel', 'arrive', 'miss', 'reinstate'])!;
      return call(port(rand), 'POST', `/appointments/${id}/${action}`, {
        body: action === 'cancel' ? { reason: 'Unwell' } : {},
      });
    },
    async (rand, pick) => {
      const id = pick(state.appointments);
      if (!id) return null;
      const res = await call(port(rand), 'DELETE', `/appointments/${id}`);
      if (res.status === 204) drop(state.appointments, id);
      return res;
    },
  ],
  invoices: [
    async (rand, pick) => {
      const id = pick(state.patients);
      if (!id) return null;
      const res = await call(port(rand), 'POST', '/invoices', {
        body: {
          patient_id: id,
          line_items: [{ billable_item_id: bill.consultation, quantity: 1 + Math.floor(rand() * 3) }],
        },
      });
      if (res.status === 201)
        state.invoices.push({
          id: res.body.data.id,
          patient_id: id,
          lines: res.body.data.line_items.map((l: Rec) => l.id),
        });
      return res;
    },
    async (rand, pick) => {
      const inv = pick(state.invoices);
      return inv
        ? call(port(rand), 'PATCH', `/invoices/${inv.id}`, { body: { note: rand() < 0.5 ? 'Paid' : null } })
        : null;
    },
    async (rand, pick) => {
      const inv = pick(state.invoices);
      if (!inv) return null;
      const res = await call(port(rand), 'DELETE', `/invoices/${inv.id}${rand() < 0.5 ? '?void_payments=true' : ''}`);
      if (res.status === 204) drop(state.invoices, inv);
      return res;
    },
  ],
  line_items: [
    async (rand, pick) => {
      const inv = pick(state.invoices);
      if (!inv) return null;
      const res = await call(port(rand), 'POST', '/line_items', {
        body: { invoice_id: inv.id, billable_item_id: bill.roller, quantity: 1 },
      });
      if (res.status === 201) inv.lines.push(res.body.data.id);
      return res;
    },
    async (rand, pick) => {
      const inv = pick(state.invoices);
      const line = inv && pick(inv.lines);
      return line
        ? call(port(rand), 'PATCH', `/line_items/${line}`, { body: { quantity: 1 + Math.floor(rand() * 4) } })
        : null;
    },
    async (rand, pick) => {
      const inv = pick(state.invoices);
      const line = inv && pick(inv.lines);
      if (!inv || !line) return null;
      const res = await call(port(rand), 'DELETE', `/line_items/${line}`);
      if (res.status === 204) drop(inv.lines, line);
      return res;
    },
  ],
  payments: [
    async (rand, pick) => {
      const inv = pick(state.invoices);
      const patient = inv?.patient_id ?? pick(state.patients);
      if (!patient) return null;
      const res = await call(port(rand), 'POST', '/payments', {
        body: {
          patient_id: patient,
          payment_method_id: bill.cash,
          amount: '50.00',
          allocations: inv && rand() < 0.6 ? [{ invoice_id: inv.id, amount: '10.00' }] : [],
        },
      });
      if (res.status === 201) state.payments.push({ id: res.body.data.id, patient_id: patient });
      return res;
    },
    async (rand, pick) => {
      const pay = pick(state.payments);
      if (!pay) return null;
      const res = await call(port(rand), 'DELETE', `/payments/${pay.id}`);
      if (res.status === 204) drop(state.payments, pay);
      return res;
    },
  ],
  payment_allocations: [
    async (rand, pick) => {
      const pay = pick(state.payments);
      const inv = pay && state.invoices.find((i) => i.patient_id === pay.patient_id);
      if (!pay || !inv) return null;
      const res = await call(port(rand), 'POST', '/payment_allocations', {
        body: { payment_id: pay.id, invoice_id: inv.id, amount: '5.00' },
      });
      if (res.status === 201) state.allocations.push(res.body.data.id);
      return res;
    },
    async (rand, pick) => {
      const id = pick(state.allocations);
      if (!id) return null;
      const res = await call(port(rand), 'DELETE', `/payment_allocations/${id}`);
      drop(state.allocations, id);
      return res;
    },
  ],
  refunds: [
    async (rand, pick) => {
      const pay = pick(state.payments);
      return pay ? call(port(rand), 'POST', '/refunds', { body: { payment_id: pay.id, amount: '1.00' } }) : null;
    },
  ],
  referral_sources: [
    async (rand) => {
      const res = await call(port(rand), 'POST', '/referral_sources', {
        body: { name: `Source ${Math.floor(rand() * 999)}` },
      });
      if (res.status === 201) state.referralSources.push(res.body.data.id);
      return res;
    },
    async (rand, pick) => {
      const id = pick(state.referralSources);
      return id
        ? call(port(rand), 'PATCH', `/referral_sources/${id}`, { body: { name: `Renamed ${Math.floor(rand() * 99)}` } })
        : null;
    },
  ],
};

beforeAll(async () => {
  const env = {
    WEBHOOKS_ALLOW_PRIVATE: '1',
    WEBHOOK_RETRY_DELAYS: '0,0,0',
    RATE_LIMIT_REST_PER_MINUTE: '100000',
    RATE_LIMIT_UNAUTH_PER_MINUTE: '100000',
  };
  local = await startServer(env);
  clinic = await newClinic(local);
  cal = await calendarFixture(local, clinic);
  bill = await billingFixture(local, clinic);
  tagId = await clinicTag(local, clinic);
  other = await spawnServer('server/test/support/cluster-server.ts', {
    ...env,
    DATABASE_URL: process.env.DATABASE_URL!,
    PORT: '0',
    WEB_CONCURRENCY: '1',
    WEBHOOK_WORKER: 'off',
    LOG_LEVEL: 'silent',
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  staff = (await signedIn(local, clinic, 'admin')).portal;
  const created = await staff.mutate('webhooks.create', {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    events: 'all',
  });
  expect(created.status, created.text).toBe(200);
  ({ secret } = portalData(created));
  endpointId = portalData(created).endpoint.id;
}, 120_000);
afterAll(async () => {
  other?.child.kill('SIGKILL');
  await new Promise<void>((r) => receiver.close(() => r()));
  await local?.close();
});

test('every resource with writes is in the workload', () => {
  const written = (Object.values(RESOURCES) as Resource[]).filter((r) => r.write.length > 0).map((r) => r.name);
  expect(Object.keys(OPS).sort()).toEqual(written.sort());
  // Every listed resource without events of its own is announced through a parent, or never written.
  const silent = MIRRORED.filter(
    (r) => !isEventType(`${r}.created`) && !isEventType(`${r}.updated`) && RESOURCES[r].write.length > 0,
  );
  expect(silent.filter((r) => !THROUGH[r])).toEqual([]);
});

test(`three mirrors of a random workload equal the REST listings (MIRROR_SEED=${SEED})`, async () => {
  const rand = prng(SEED);
  const pick = <T>(xs: T[]) => (xs.length ? xs[Math.floor(rand() * xs.length)] : undefined);
  const start = await listing();
  const hooks: Mirror = new Map([...start].map(([r, m]) => [r, new Map(m)]));
  const feed: Mirror = new Map([...start].map(([r, m]) => [r, new Map(m)]));
  const polled: Mirror = new Map([...start].map(([r, m]) => [r, new Map(m)]));
  polledSince = new Date().toISOString();
  // The feed from its end now (the listing above holds what came before).
  feedNext = '/events?page_size=7&cursor=';
  for (;;) {
    const page = await get(feedNext);
    feedNext = relative(page.body.links.next);
    if (!page.body.meta.has_more) break;
  }
  await local.app.webhooks.drain();
  applied = arrivals.length;

  const resources = Object.keys(OPS);
  const outcomes: Record<string, number> = {};
  // Steps are operations sent: a pick that finds nothing to act on (no invoice yet) is not one.
  for (let step = 0, tries = 0; step < STEPS && tries < STEPS * 10; tries++) {
    const res = await pick(OPS[pick(resources)!])!(rand, pick);
    if (!res) continue;
    // A refusal (a business rule, an action the appointment's state does not allow, a record a void or
    // delete took with it since) changes nothing.
    expect([200, 201, 204, 404, 409, 422], `MIRROR_SEED=${SEED} step ${step}: ${res.text}`).toContain(res.status);
    outcomes[res.status] = (outcomes[res.status] ?? 0) + 1;
    step++;
    if (step === Math.floor(STEPS / 4)) down = true;
    if (step === Math.floor(STEPS / 2)) down = false;
    if (step === Math.floor((STEPS * 5) / 8))
      expect((await staff.mutate('webhooks.setEnabled', { id: endpointId, enabled: false })).status).toBe(200);
    if (step === Math.floor((STEPS * 6) / 8))
      expect((await staff.mutate('webhooks.setEnabled', { id: endpointId, enabled: true })).status).toBe(200);
    if (step % 10 === 0) {
      await followWebhooks(hooks);
      await followFeed(feed);
      await poll(polled);
    }
  }
  await followWebhooks(hooks);
  await followFeed(feed);
  await poll(polled);
  const done = (outcomes[200] ?? 0) + (outcomes[201] ?? 0) + (outcomes[204] ?? 0);
  expect(done, `MIRROR_SEED=${SEED} ${JSON.stringify(outcomes)}`).toBeGreaterThan(STEPS * 0.7);
  expect(failedOnce.size, 'the receiver failed for a stretch').toBeGreaterThan(0);

  const expected = await listing();
  for (const [name, mirror] of [
    ['webhooks', hooks],
    ['feed', feed],
    ['polling', polled],
  ] as const) {
    const built = withEmbeds(mirror);
    for (const r of MIRRORED) {
      const want = [...expected.get(r)!.values()].sort((a, b) => a.id - b.id);
      const got = [...built.get(r)!.values()].sort((a, b) => a.id - b.id);
      expect(got, `MIRROR_SEED=${SEED}: the ${name} mirror of ${r}: ${differences(got, want)}`).toEqual(want);
    }
  }
}, 240_000);
