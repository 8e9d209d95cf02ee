/**
 * Practice setup in the portal, the catalogue part: billable items (prices typed as decimals in the
 * clinic's currency, stored exactly in minor units), rooms and equipment (the API's `resources`) and
 * form templates (read-only in the portal). Writes are audited with the member; the catalogue names no
 * events for these resources, so none is announced. Bad input is a 422 naming the attribute and saves
 * nothing; another clinic's ids are not found; a record in use is refused (409) with what to do
 * instead, and that alternative (inactive / archived) is what the API then reads.
 */
import { and, count, eq, gt } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { auditLog, billableItems, events, formTemplates, resources } from '../../db/schema';
import { newClinic, useClinic, type Clinic } from './helpers';
import { portalCode, portalData, signedIn, type PortalClient } from './support/portal';

const t = useClinic();
let owner: PortalClient;
let ownerId: number;
let elsewhere: PortalClient;
let other: Clinic;

beforeAll(async () => {
  const s = await signedIn(t.server, t.clinic, 'owner');
  owner = s.portal;
  ownerId = s.member.id;
  other = await newClinic(t.server);
  elsewhere = (await signedIn(t.server, other, 'owner')).portal;
});

const db = () => t.server.app.db.db;
const lastEventId = async () =>
  (await db().select({ id: events.id }).from(events).where(eq(events.account_id, t.clinic.account.id))).reduce(
    (m, e) => Math.max(m, e.id),
    0,
  );
const eventsSince = async (after: number) =>
  db()
    .select({ type: events.type })
    .from(events)
    .where(and(eq(events.account_id, t.clinic.account.id), gt(events.id, after)));
const auditOf = (entity: string, id: number) =>
  db()
    .select({ action: auditLog.action, actor_type: auditLog.actor_type, actor_id: auditLog.actor_id })
    .from(auditLog)
    .where(and(eq(auditLog.account_id, t.clinic.account.id), eq(auditLog.entity, entity), eq(auditLog.entity_id, id)))
    .orderBy(auditLog.id);
const countOf = async (table: typeof billableItems | typeof resources) =>
  (await db().select({ n: count() }).from(table).where(eq(table.account_id, t.clinic.account.id)))[0].n;

async function ok(res: Promise<Awaited<ReturnType<PortalClient['mutate']>>>) {
  const r = await res;
  expect(r.status, r.text).toBe(200);
  return portalData(r);
}
const errorsOf = (res: Awaited<ReturnType<PortalClient['mutate']>>) => res.body?.error?.data?.errors ?? {};

describe('billable items', () => {
  test('create → update → delete: the price round-trips exactly over REST, each write audited with the member, no event announced', async () => {
    const start = await lastEventId();
    const made = await ok(
      owner.mutate('practice.billableItems.create', {
        name: ' Sports massage ',
        item_code: 'SM30',
        item_type: 'service',
        price: '19.99',
        tax_rate: '7.5',
      }),
    );
    expect(made).toMatchObject({
      name: 'Sports massage',
      item_code: 'SM30',
      item_type: 'service',
      price: '19.99',
      tax_rate: '7.50',
      active: true,
    });
    // Stored in minor units and basis points, as the invoices read them.
    const [row] = await db().select().from(billableItems).where(eq(billableItems.id, made.id));
    expect(row).toMatchObject({ price_minor: 1999, tax_rate_bp: 750, account_id: t.clinic.account.id });

    const rest = await t.api.get(`/billable_items/${made.id}`);
    expect(rest.status).toBe(200);
    expect(rest.body.data).toMatchObject({ price: '19.99', tax_rate: '7.50' });
    expect(
      (await t.api.get(`/billable_items?name=${encodeURIComponent('Sports massage')}`)).body.data.map(
        (i: { id: number }) => i.id,
      ),
    ).toContain(made.id);

    // Amounts that binary floats get wrong stay exact.
    for (const [typed, read] of [
      ['0.10', '0.10'],
      ['1234567.89', '1234567.89'],
      ['45', '45.00'],
      ['0.3', '0.30'],
    ]) {
      await ok(owner.mutate('practice.billableItems.update', { id: made.id, price: typed }));
      expect((await t.api.get(`/billable_items/${made.id}`)).body.data.price).toBe(read);
    }
    // No tax rate, or a blank one, is no tax.
    const plain = await ok(
      owner.mutate('practice.billableItems.create', { name: 'Tape', item_type: 'product', price: '4.50' }),
    );
    expect(plain).toMatchObject({ tax_rate: '0.00', item_code: null });
    expect(
      await ok(
        owner.mutate('practice.billableItems.create', {
          name: 'Gel',
          item_type: 'product',
          price: '2.00',
          tax_rate: ' ',
        }),
      ),
    ).toMatchObject({ tax_rate: '0.00' });

    expect(await ok(owner.mutate('practice.billableItems.delete', { id: plain.id }))).toEqual({
      id: plain.id,
      deleted: true,
    });
    expect((await t.api.get(`/billable_items/${plain.id}`)).status).toBe(404);
    expect(await auditOf('billable_items', made.id)).toEqual(
      ['created', 'updated', 'updated', 'updated', 'updated'].map((action) => ({
        action,
        actor_type: 'user',
        actor_id: ownerId,
      })),
    );
    expect(await auditOf('billable_items', plain.id)).toEqual(
      ['created', 'deleted'].map((action) => ({ action, actor_type: 'user', actor_id: ownerId })),
    );
    expect(await eventsSince(start), 'billable_items has no event types').toEqual([]);
  });

  test('a bad price or tax rate is a 422 naming the attribute; nothing is saved', async () => {
    const before = await countOf(billableItems);
    const item = await ok(
      owner.mutate('practice.billableItems.create', {
        name: 'Kept',
        item_type: 'service',
        price: '30.00',
        tax_rate: '20',
      }),
    );
    for (const [input, attribute] of [
      [{ price: '12.345' }, 'price'],
      [{ price: '-5' }, 'price'],
      [{ price: '1e3' }, 'price'],
      [{ price: '£12' }, 'price'],
      [{ price: '' }, 'price'],
      [{ price: 12 }, 'price'],
      [{ tax_rate: '101' }, 'tax_rate'],
      [{ tax_rate: '20.001' }, 'tax_rate'],
      [{ tax_rate: 'twenty' }, 'tax_rate'],
      [{ item_type: 'gift' }, 'item_type'],
      [{ name: '  ' }, 'name'],
    ] as const) {
      const created = await owner.mutate('practice.billableItems.create', {
        name: 'New',
        item_type: 'service',
        price: '10.00',
        ...input,
      });
      expect(created.status, JSON.stringify(input)).toBe(422);
      expect(portalCode(created)).toBe('validation_failed');
      expect(Object.keys(errorsOf(created))).toEqual([attribute]);
      const updated = await owner.mutate('practice.billableItems.update', { id: item.id, ...input });
      expect(updated.status, JSON.stringify(input)).toBe(422);
      expect(Object.keys(errorsOf(updated))).toEqual([attribute]);
    }
    expect(await countOf(billableItems)).toBe(before + 1);
    expect((await t.api.get(`/billable_items/${item.id}`)).body.data).toMatchObject({
      name: 'Kept',
      price: '30.00',
      tax_rate: '20.00',
      item_type: 'service',
    });
  });

  test('an item on an invoice is not deleted: 409 saying so; made inactive instead, the invoice keeps its line', async () => {
    const item = await ok(
      owner.mutate('practice.billableItems.create', { name: 'Assessment fee', item_type: 'service', price: '60.00' }),
    );
    const patient = await t.api.post('/patients', { body: { first_name: 'Ina', last_name: 'Voice' } });
    const invoice = await t.api.post('/invoices', {
      body: { patient_id: patient.body.data.id, line_items: [{ billable_item_id: item.id, quantity: 1 }] },
    });
    expect(invoice.status, invoice.text).toBe(201);

    const refused = await owner.mutate('practice.billableItems.delete', { id: item.id });
    expect(refused.status).toBe(409);
    expect(portalCode(refused)).toBe('conflict');
    expect(refused.body.error.message).toBe(
      'Assessment fee is in use (1 invoice line), so it cannot be deleted. Make it inactive instead: it is no longer offered for new invoice lines, and past invoices keep it.',
    );
    expect(
      await db().select({ id: billableItems.id }).from(billableItems).where(eq(billableItems.id, item.id)),
    ).toEqual([{ id: item.id }]);

    await ok(owner.mutate('practice.billableItems.update', { id: item.id, active: false }));
    expect(
      (await t.api.get(`/billable_items?active=false&name=${encodeURIComponent('Assessment fee')}`)).body.data.map(
        (i: { id: number }) => i.id,
      ),
    ).toContain(item.id);
    const kept = await t.api.get(`/invoices/${invoice.body.data.id}`);
    expect(kept.body.data.line_items[0]).toMatchObject({ billable_item_id: item.id, unit_price: '60.00' });
  });

  test('another clinic’s item is not found, and its list is its own', async () => {
    const theirs = await ok(
      elsewhere.mutate('practice.billableItems.create', { name: 'Theirs', item_type: 'other', price: '1.00' }),
    );
    for (const res of [
      await owner.mutate('practice.billableItems.update', { id: theirs.id, price: '2.00' }),
      await owner.mutate('practice.billableItems.delete', { id: theirs.id }),
    ]) {
      expect(res.status).toBe(404);
      expect(portalCode(res)).toBe('not_found');
    }
    const [row] = await db()
      .select({ price: billableItems.price_minor })
      .from(billableItems)
      .where(eq(billableItems.id, theirs.id));
    expect(row.price).toBe(100);
    const mine = await ok(owner.query('practice.billableItems.list'));
    expect(mine.currency).toBe(t.clinic.account.currency);
    expect(mine.data.map((i: { id: number }) => i.id)).not.toContain(theirs.id);
  });
});

describe('rooms and equipment (resources)', () => {
  test('create → update → delete: REST GET /resources shows them, audited with the member, no event announced', async () => {
    const site = await ok(owner.mutate('practice.locations.create', { name: 'Rooms site' }));
    const start = await lastEventId();
    const room = await ok(
      owner.mutate('practice.rooms.create', {
        location_id: site.id,
        name: 'Room 1',
        public_name: '',
        color: '#22aa66',
      }),
    );
    expect(room).toMatchObject({
      location_id: site.id,
      name: 'Room 1',
      public_name: null,
      color: '#22aa66',
      sort_order: 0,
      status: 'active',
      locked: false,
    });
    const rest = await t.api.get(`/resources?location_id=${site.id}`);
    expect(rest.status).toBe(200);
    expect(rest.body.data).toEqual([expect.objectContaining({ id: room.id, name: 'Room 1', status: 'active' })]);

    expect(
      await ok(
        owner.mutate('practice.rooms.update', {
          id: room.id,
          public_name: 'Treatment room',
          sort_order: 2,
          status: 'inactive',
          locked: true,
        }),
      ),
    ).toMatchObject({
      public_name: 'Treatment room',
      sort_order: 2,
      status: 'inactive',
      locked: true,
    });
    expect((await t.api.get(`/resources/${room.id}`)).body.data).toMatchObject({
      public_name: 'Treatment room',
      status: 'inactive',
      locked: true,
    });
    expect(await ok(owner.mutate('practice.rooms.delete', { id: room.id }))).toEqual({ id: room.id, deleted: true });
    expect((await t.api.get(`/resources/${room.id}`)).status).toBe(404);
    expect(await auditOf('resources', room.id)).toEqual(
      ['created', 'updated', 'deleted'].map((action) => ({ action, actor_type: 'user', actor_id: ownerId })),
    );
    expect(await eventsSince(start), 'resources has no event types').toEqual([]);
  });

  test('bad input is a 422 naming the attribute; another clinic’s location is location_not_found; nothing saved', async () => {
    const site = await ok(owner.mutate('practice.locations.create', { name: 'Check site' }));
    const theirSite = await ok(elsewhere.mutate('practice.locations.create', { name: 'Their site' }));
    const before = await countOf(resources);
    for (const [input, attribute, code] of [
      [{ name: '' }, 'name', 'validation_failed'],
      [{ location_id: 0 }, 'location_id', 'validation_failed'],
      [{ color: 'green' }, 'color', 'validation_failed'],
      [{ sort_order: -1 }, 'sort_order', 'validation_failed'],
      [{ sort_order: 1.5 }, 'sort_order', 'validation_failed'],
      [{ status: 'deleted' }, 'status', 'validation_failed'],
      [{ location_id: theirSite.id }, 'location_id', 'location_not_found'],
    ] as const) {
      const res = await owner.mutate('practice.rooms.create', { location_id: site.id, name: 'Bench', ...input });
      expect(res.status, JSON.stringify(input)).toBe(422);
      expect(portalCode(res)).toBe(code);
      expect(Object.keys(errorsOf(res))).toEqual([attribute]);
    }
    expect(await countOf(resources)).toBe(before);
  });

  test('a room with appointments is not deleted: 409 saying to archive it; archived, it can no longer be booked', async () => {
    const site = await ok(owner.mutate('practice.locations.create', { name: 'Booked rooms' }));
    const type = await ok(
      owner.mutate('practice.appointmentTypes.create', { name: 'Room visit', duration_minutes: 30 }),
    );
    const p = await ok(
      owner.mutate('practice.practitioners.create', {
        first_name: 'Ro',
        last_name: 'Om',
        location_ids: [site.id],
        appointment_type_ids: [type.id],
      }),
    );
    await ok(
      owner.mutate('practice.hours.create', {
        practitioner_id: p.id,
        location_id: site.id,
        type: 'open',
        day: '3',
        starts_at: '09:00',
        ends_at: '17:00',
      }),
    );
    const room = await ok(owner.mutate('practice.rooms.create', { location_id: site.id, name: 'Gym' }));
    const patient = await t.api.post('/patients', { body: { first_name: 'Pat', last_name: 'Room' } });
    const day = new Date(Date.now() + 8 * 86_400_000);
    day.setUTCDate(day.getUTCDate() + ((10 - day.getUTCDay()) % 7));
    const at = (time: string) => `${day.toISOString().slice(0, 10)}T${time}`;
    const body = {
      patient_id: patient.body.data.id,
      practitioner_id: p.id,
      location_id: site.id,
      appointment_type_id: type.id,
      resource_id: room.id,
    };
    const booked = await t.api.post('/appointments', { body: { ...body, starts_at: at('10:00:00') } });
    expect(booked.status, booked.text).toBe(201);

    const refused = await owner.mutate('practice.rooms.delete', { id: room.id });
    expect(refused.status).toBe(409);
    expect(portalCode(refused)).toBe('conflict');
    expect(refused.body.error.message).toMatch(
      /^Gym is in use \(1 appointment\), so it cannot be deleted\. Archive it instead/,
    );
    expect(await db().select({ status: resources.status }).from(resources).where(eq(resources.id, room.id))).toEqual([
      { status: 'active' },
    ]);

    await ok(owner.mutate('practice.rooms.update', { id: room.id, status: 'archived' }));
    expect((await t.api.get(`/resources/${room.id}`)).body.data.status).toBe('archived');
    const again = await t.api.post('/appointments', { body: { ...body, starts_at: at('11:00:00') } });
    expect(again.status).toBe(422);
    expect(again.body.code).toBe('resource_unavailable');
    expect((await t.api.get(`/appointments/${booked.body.data.id}`)).body.data.resource_id).toBe(room.id);
  });

  test('another clinic’s room is not found', async () => {
    const theirSite = await ok(elsewhere.mutate('practice.locations.create', { name: 'Far away' }));
    const theirs = await ok(
      elsewhere.mutate('practice.rooms.create', { location_id: theirSite.id, name: 'Their room' }),
    );
    for (const res of [
      await owner.mutate('practice.rooms.update', { id: theirs.id, name: 'Mine now' }),
      await owner.mutate('practice.rooms.delete', { id: theirs.id }),
    ]) {
      expect(res.status).toBe(404);
      expect(portalCode(res)).toBe('not_found');
    }
    expect(await db().select({ name: resources.name }).from(resources).where(eq(resources.id, theirs.id))).toEqual([
      { name: 'Their room' },
    ]);
    expect((await ok(owner.query('practice.rooms.list'))).data.map((r: { id: number }) => r.id)).not.toContain(
      theirs.id,
    );
  });
});

describe('form templates', () => {
  test('listed read-only: the clinic’s own templates with their questions; no write procedure exists', async () => {
    const now = new Date().toISOString();
    const questions = [
      { key: 'pain', label: 'Where is the pain?', type: 'text' as const, required: true },
      { key: 'side', label: 'Which side?', type: 'choice' as const, required: false, options: ['Left', 'Right'] },
    ];
    // Templates are written by the clinic software (no write procedure yet): set up as it would.
    const rows = await t.server.app.db.transaction((tx) =>
      tx
        .insert(formTemplates)
        .values([
          {
            account_id: t.clinic.account.id,
            name: 'Intake',
            category: 'intake',
            active: true,
            questions,
            metadata: {},
            created_at: now,
            updated_at: now,
          },
          {
            account_id: other.account.id,
            name: 'Theirs',
            category: 'other',
            active: true,
            questions: [],
            metadata: {},
            created_at: now,
            updated_at: now,
          },
        ])
        .returning({ id: formTemplates.id }),
    );
    const listed = await ok(owner.query('practice.formTemplates.list'));
    expect(listed.data).toEqual([
      expect.objectContaining({ id: rows[0].id, name: 'Intake', category: 'intake', questions }),
    ]);
    expect((await owner.mutate('practice.formTemplates.create', { name: 'X' })).status).toBe(404);
  });
});
