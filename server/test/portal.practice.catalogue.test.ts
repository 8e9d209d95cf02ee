/**
 * The catalogue in the portal's Practice pages: modalities, payment methods, patient tags and referral
 * sources written by staff (server/routers/portal/practice). Each write is audited with the member as
 * actor and announced where the event catalogue has the type (tags have none: audited only); bad input
 * is a 422 naming the attribute and changes nothing; a record in use is refused (409 conflict) with
 * what uses it and what to do instead, and stays; another clinic's ids are not found.
 */
import { and, count, eq, gt } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { auditLog, carePlans, events, modalities, paymentMethods, referralSources, tags } from '../../db/schema';
import { newClinic, useClinic } from './helpers';
import { portalCode, portalData, signedIn, type PortalClient } from './support/portal';

const t = useClinic();
let owner: PortalClient;
let ownerId: number;

beforeAll(async () => {
  const s = await signedIn(t.server, t.clinic, 'owner');
  owner = s.portal;
  ownerId = s.member.id;
});

type Reply = Awaited<ReturnType<PortalClient['mutate']>>;
const db = () => t.server.app.db.db;
const lastEventId = async () =>
  (await db().select({ id: events.id }).from(events).where(eq(events.account_id, t.clinic.account.id))).reduce(
    (m, e) => Math.max(m, e.id),
    0,
  );
const eventsSince = async (after: number) =>
  db()
    .select({ type: events.type, entity_id: events.entity_id })
    .from(events)
    .where(and(eq(events.account_id, t.clinic.account.id), gt(events.id, after)))
    .orderBy(events.id);
const auditOf = async (entity: string, id: number) =>
  db()
    .select({ action: auditLog.action, actor_type: auditLog.actor_type, actor_id: auditLog.actor_id })
    .from(auditLog)
    .where(and(eq(auditLog.account_id, t.clinic.account.id), eq(auditLog.entity, entity), eq(auditLog.entity_id, id)))
    .orderBy(auditLog.id);
const byMember = (...actions: string[]) => actions.map((action) => ({ action, actor_type: 'user', actor_id: ownerId }));

async function ok(res: Promise<Reply>) {
  const r = await res;
  expect(r.status, r.text).toBe(200);
  return portalData(r);
}
const errorsOf = (res: Reply) => res.body?.error?.data?.errors ?? {};

/** Create → unchanged save → update → delete of an unused record: what is announced, what is audited. */
async function lifecycle(proc: string, entity: string, create: object, update: object) {
  const start = await lastEventId();
  const made = await ok(owner.mutate(`practice.${proc}.create`, create));
  await ok(owner.mutate(`practice.${proc}.update`, { id: made.id, ...create }));
  const changed = await ok(owner.mutate(`practice.${proc}.update`, { id: made.id, ...update }));
  expect(await ok(owner.mutate(`practice.${proc}.delete`, { id: made.id }))).toEqual({ id: made.id, deleted: true });
  expect(await auditOf(entity, made.id)).toEqual(byMember('created', 'updated', 'deleted'));
  return { made, changed, announced: await eventsSince(start) };
}

/** Every input is a 422 naming its attribute, and nothing is written or announced. */
type SetupTable = typeof modalities | typeof paymentMethods | typeof tags | typeof referralSources;

/** The clinic's rows of a setup table. */
const rowsOf = async (table: SetupTable) =>
  (await db().select({ n: count() }).from(table).where(eq(table.account_id, t.clinic.account.id)))[0].n;

async function refusedInput(proc: string, table: SetupTable, cases: [object, string][]) {
  const rows = () => rowsOf(table);
  const before = await rows();
  const start = await lastEventId();
  for (const [input, attribute] of cases) {
    const res = await owner.mutate(proc, input);
    expect(res.status, JSON.stringify(input)).toBe(422);
    expect(portalCode(res)).toBe('validation_failed');
    expect(Object.keys(errorsOf(res)), JSON.stringify(input)).toEqual([attribute]);
  }
  expect(await rows()).toBe(before);
  expect(await lastEventId()).toBe(start);
}

/** A delete refused as in use: 409 conflict with the reason, the record untouched, nothing announced. */
async function refusedDelete(proc: string, id: number, reason: RegExp) {
  const start = await lastEventId();
  const res = await owner.mutate(`practice.${proc}.delete`, { id });
  expect(res.status, res.text).toBe(409);
  expect(portalCode(res)).toBe('conflict');
  expect(res.body.error.message).toMatch(reason);
  expect(await lastEventId()).toBe(start);
  const listed = await ok(owner.query(`practice.${proc}.list`));
  expect(listed.data.map((r: { id: number }) => r.id)).toContain(id);
}

describe('modalities', () => {
  test('create → update → delete: audited with the member, each announced; the API reads them', async () => {
    const { made, changed, announced } = await lifecycle(
      'modalities',
      'modalities',
      { name: '  Dry needling ', color: '#AA3366' },
      { color: '' },
    );
    expect(made).toMatchObject({ name: 'Dry needling', color: '#AA3366' });
    expect(changed).toMatchObject({ name: 'Dry needling', color: null });
    expect(announced).toEqual(
      ['created', 'updated', 'deleted'].map((a) => ({ type: `modalities.${a}`, entity_id: made.id })),
    );
    expect((await t.api.get(`/modalities/${made.id}`)).status).toBe(404);
  });

  test('bad input is a 422 naming the attribute', async () => {
    await refusedInput('practice.modalities.create', modalities, [
      [{ name: '  ' }, 'name'],
      [{ name: 'Massage', color: 'pink' }, 'color'],
      [{ color: '#3366cc' }, 'name'],
    ]);
    const extra = await owner.mutate('practice.modalities.create', { name: 'Massage', sort_order: 1 });
    expect(extra.status).toBe(422);
  });

  test('a modality a care plan plans visits with is not deleted (409, with what uses it)', async () => {
    const m = await ok(owner.mutate('practice.modalities.create', { name: 'Hydrotherapy' }));
    const now = new Date().toISOString();
    // Care plans are read-only through the API: one is set up as the clinic software would.
    await t.server.app.db.transaction((tx) =>
      tx.insert(carePlans).values({
        account_id: t.clinic.account.id,
        name: 'Back in the pool',
        status: 'active',
        billing: { type: 'upfront', amount_minor: 0, period: null, periods: [], services: [], products: [] },
        schedules: [
          {
            id: 1,
            name: 'Main',
            visits_planned: 6,
            appointment_type_ids: [],
            auto_sync: false,
            sync_status: 'synced',
            phases: [{ name: 'Pool', weeks: 3, visits_per_week: 2, modality_ids: [m.id] }],
          },
        ],
        metadata: {},
        created_at: now,
        updated_at: now,
      }),
    );
    await refusedDelete(
      'modalities',
      m.id,
      /^Hydrotherapy is in use \(1 care plan\), so it cannot be deleted\. Take it out of those care plans/,
    );
    expect((await t.api.get(`/modalities/${m.id}`)).body.data).toMatchObject({ id: m.id, name: 'Hydrotherapy' });
  });
});

describe('payment methods', () => {
  test('create (active, last in the list) → update → delete: audited, each announced', async () => {
    const { made, changed, announced } = await lifecycle(
      'paymentMethods',
      'payment_methods',
      { name: 'Voucher', type: 'other' },
      { type: 'bank_transfer', sort_order: 0 },
    );
    expect(made).toMatchObject({ name: 'Voucher', type: 'other', active: true });
    const listed = await ok(owner.query('practice.paymentMethods.list'));
    expect(made.sort_order).toBe(Math.max(0, ...listed.data.map((m: { sort_order: number }) => m.sort_order)) + 1);
    expect(changed).toMatchObject({ type: 'bank_transfer', sort_order: 0 });
    expect(announced).toEqual(
      ['created', 'updated', 'deleted'].map((a) => ({ type: `payment_methods.${a}`, entity_id: made.id })),
    );
  });

  test('bad input is a 422 naming the attribute', async () => {
    await refusedInput('practice.paymentMethods.create', paymentMethods, [
      [{ name: 'Coins', type: 'bitcoin' }, 'type'],
      [{ name: '', type: 'cash' }, 'name'],
      [{ name: 'Coins', type: 'cash', sort_order: -1 }, 'sort_order'],
      [{ name: 'Coins', type: 'cash', sort_order: 1.5 }, 'sort_order'],
      [{ name: 'Coins', type: 'cash', active: 'yes' }, 'active'],
    ]);
  });

  test('a method payments were taken with is not deleted (409: make it inactive); inactive, the API no longer takes it', async () => {
    const method = await ok(owner.mutate('practice.paymentMethods.create', { name: 'Petty cash', type: 'cash' }));
    const patient = (await t.api.post('/patients', { body: { first_name: 'Pay', last_name: 'Er' } })).body.data;
    const paid = await t.api.post('/payments', {
      body: { patient_id: patient.id, payment_method_id: method.id, amount: '20.00' },
    });
    expect(paid.status, paid.text).toBe(201);

    await refusedDelete(
      'paymentMethods',
      method.id,
      /^Petty cash is in use \(1 payment\), so it cannot be deleted\. Make it inactive instead/,
    );
    const start = await lastEventId();
    expect(await ok(owner.mutate('practice.paymentMethods.update', { id: method.id, active: false }))).toMatchObject({
      active: false,
    });
    expect(await eventsSince(start)).toEqual([{ type: 'payment_methods.updated', entity_id: method.id }]);
    const refused = await t.api.post('/payments', {
      body: { patient_id: patient.id, payment_method_id: method.id, amount: '5.00' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('payment_method_unavailable');
    expect((await t.api.get(`/payments/${paid.body.data.id}`)).body.data.payment_method_id).toBe(method.id);
  });
});

describe('patient tags', () => {
  test('create → update → delete: audited with the member; tags have no events, so nothing is announced', async () => {
    const { made, changed, announced } = await lifecycle(
      'tags',
      'tags',
      { name: 'Runner', color: '#3366cc' },
      { name: 'Marathon runner', sort_order: 7 },
    );
    expect(made).toMatchObject({ name: 'Runner', color: '#3366cc' });
    expect(made.sort_order).toBeGreaterThan(0);
    expect(changed).toMatchObject({ name: 'Marathon runner', sort_order: 7 });
    expect(announced).toEqual([]);
  });

  test('bad input is a 422 naming the attribute', async () => {
    await refusedInput('practice.tags.create', tags, [
      [{ name: ' ' }, 'name'],
      [{ name: 'Swimmer', color: '#12345' }, 'color'],
      [{ name: 'Swimmer', sort_order: 'first' }, 'sort_order'],
    ]);
  });

  test('a second tag of a name (any case, spaces around) is refused, on create and on rename; nothing is made', async () => {
    const runner = await ok(owner.mutate('practice.tags.create', { name: 'Hill walker' }));
    const other = await ok(owner.mutate('practice.tags.create', { name: 'Swimmer' }));
    const rows = () => rowsOf(tags);
    const before = await rows();
    for (const [proc, input] of [
      ['practice.tags.create', { name: 'Hill walker' }],
      ['practice.tags.create', { name: '  HILL WALKER ' }],
      ['practice.tags.update', { id: other.id, name: 'hill walker' }],
    ] as const) {
      const res = await owner.mutate(proc, input);
      expect(res.status, JSON.stringify(input)).toBe(422);
      expect(errorsOf(res).name, JSON.stringify(input)).toEqual([expect.stringMatching(/already exists/)]);
    }
    expect(await rows()).toBe(before);
    // Renaming a tag to its own name in another case is not a clash with itself.
    expect(await ok(owner.mutate('practice.tags.update', { id: runner.id, name: 'Hill Walker' }))).toMatchObject({
      name: 'Hill Walker',
    });
  });

  test('a tag on a patient is not deleted (409, naming how many); taken off the patient, it is', async () => {
    const tag = await ok(owner.mutate('practice.tags.create', { name: 'Interpreter' }));
    const patient = (await t.api.post('/patients', { body: { first_name: 'Tag', last_name: 'Ged' } })).body.data;
    const placed = await t.api.post('/patient_tags', { body: { patient_id: patient.id, tag_id: tag.id } });
    expect(placed.status, placed.text).toBe(201);

    await refusedDelete(
      'tags',
      tag.id,
      /^Interpreter is in use \(1 patient\), so it cannot be deleted\. Remove it from those patients/,
    );
    expect((await t.api.get(`/patients/${patient.id}`)).body.data.tags.map((x: { id: number }) => x.id)).toContain(
      tag.id,
    );

    expect((await t.api.delete(`/patient_tags/${placed.body.data.id}`)).status).toBe(204);
    expect((await owner.mutate('practice.tags.delete', { id: tag.id })).status).toBe(200);
    expect((await t.api.get(`/tags/${tag.id}`)).status).toBe(404);
  });
});

describe('referral sources', () => {
  test('created in the portal, changed through the API and the portal, deleted in the portal: referral_sources.deleted fires', async () => {
    const start = await lastEventId();
    const made = await ok(owner.mutate('practice.referralSources.create', { name: ' Leaflet ', category: 'Advert' }));
    expect(made).toMatchObject({ name: 'Leaflet', category: 'Advert', active: true });
    const patched = await t.api.patch(`/referral_sources/${made.id}`, { body: { name: 'Leaflet drop' } });
    expect(patched.status, patched.text).toBe(200);
    expect(
      await ok(owner.mutate('practice.referralSources.update', { id: made.id, category: null, active: false })),
    ).toMatchObject({ name: 'Leaflet drop', category: null, active: false });
    expect(await ok(owner.mutate('practice.referralSources.delete', { id: made.id }))).toEqual({
      id: made.id,
      deleted: true,
    });

    expect(await eventsSince(start)).toEqual(
      ['created', 'updated', 'updated', 'deleted'].map((a) => ({ type: `referral_sources.${a}`, entity_id: made.id })),
    );
    expect(await auditOf('referral_sources', made.id)).toEqual([
      byMember('created')[0],
      expect.objectContaining({ action: 'updated', actor_type: 'api_key' }),
      ...byMember('updated', 'deleted'),
    ]);
    expect((await t.api.get(`/referral_sources/${made.id}`)).status).toBe(404);
    const gone = await t.api.get('/deleted_entities?entity=referral_sources');
    expect(gone.body.data.map((d: { entity_id: number }) => d.entity_id)).toContain(made.id);
  });

  test('the portal keeps the API’s rule for the name: 422 naming it', async () => {
    await refusedInput('practice.referralSources.create', referralSources, [
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(256) }, 'name'],
      [{ name: 'GP', active: 1 }, 'active'],
    ]);
  });

  test('a source a patient was referred by is not deleted (409: make it inactive)', async () => {
    const source = await ok(owner.mutate('practice.referralSources.create', { name: 'Harbour GP' }));
    const patient = await t.api.post('/patients', {
      body: {
        first_name: 'Ref',
        last_name: 'Erred',
        referral_source_id: source.id,
        referral_source_type: 'referral_source',
      },
    });
    expect(patient.status, patient.text).toBe(201);
    await refusedDelete(
      'referralSources',
      source.id,
      /^Harbour GP is in use \(1 patient referred by it\), so it cannot be deleted\. Make it inactive instead/,
    );
    // Once that patient is deleted, nothing live names it.
    expect((await t.api.delete(`/patients/${patient.body.data.id}`)).status).toBe(204);
    expect((await owner.mutate('practice.referralSources.delete', { id: source.id })).status).toBe(200);
  });
});

test("another clinic's records are not found, and nothing of theirs changes", async () => {
  const other = await newClinic(t.server);
  const { portal: elsewhere } = await signedIn(t.server, other, 'owner');
  const theirs = {
    modalities: await ok(elsewhere.mutate('practice.modalities.create', { name: 'Theirs' })),
    paymentMethods: await ok(elsewhere.mutate('practice.paymentMethods.create', { name: 'Theirs', type: 'cash' })),
    tags: await ok(elsewhere.mutate('practice.tags.create', { name: 'Theirs' })),
    referralSources: await ok(elsewhere.mutate('practice.referralSources.create', { name: 'Theirs' })),
  };
  const start = await lastEventId();
  for (const [proc, record] of Object.entries(theirs)) {
    for (const [verb, input] of [
      ['update', { id: record.id, name: 'Mine now' }],
      ['delete', { id: record.id }],
    ] as const) {
      const res = await owner.mutate(`practice.${proc}.${verb}`, input);
      expect(res.status, `${proc}.${verb}`).toBe(404);
      expect(portalCode(res)).toBe('not_found');
    }
    const mine = await ok(owner.query(`practice.${proc}.list`));
    expect(mine.data.map((r: { id: number }) => r.id)).not.toContain(record.id);
    const still = await ok(elsewhere.query(`practice.${proc}.list`));
    expect(still.data.find((r: { id: number }) => r.id === record.id)).toMatchObject({ name: 'Theirs' });
  }
  expect(await lastEventId()).toBe(start);
});
