import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, deletedEntities, patients } from '../../db/schema';
import { expectError, outboxEvents, useClinic } from './helpers';

const t = useClinic({ seed: true });
const { api } = t;
let locationId: number;

beforeAll(async () => {
  locationId = (await api.get('/locations')).body.data[0].id;
});

const eventsFor = (entity: string, id: number) => outboxEvents(t.server, t.clinic, entity, id);

describe('patients', () => {
  it('create → 201 with the full record; audit and outbox written in the same operation', async () => {
    const res = await api.post('/patients', {
      body: {
        first_name: 'Grace',
        last_name: 'Hopper',
        preferred_name: 'Amazing Grace',
        dob: '1906-12-09',
        email: 'grace@example.com',
        sex: 'female',
        custom_reference: 'GH-1',
        default_location_id: locationId,
        communication_preferences: { marketing: false, preferred_channel: 'email' },
        numbers: [{ number: '07700 900001', type: 'mobile' }],
        address: { line_1: '1 Navy Way', city: 'London', postal_code: 'SW1A 1AA', country: 'GB' },
        metadata: { crm_id: 'abc', visits: 3, vip: true },
      },
    });
    expect(res.status).toBe(201);
    const p = res.body.data;
    expect(p).toMatchObject({
      first_name: 'Grace',
      locale: 'en',
      blocked: false,
      sex: 'female',
      numbers: [
        { number: '07700 900001', type: 'mobile', iso2: 'GB', intl_number: '+447700900001', country_code: '44' },
      ],
      address: {
        line_1: '1 Navy Way',
        line_2: null,
        city: 'London',
        state: null,
        postal_code: 'SW1A 1AA',
        country: 'GB',
      },
      tags: [],
      metadata: { crm_id: 'abc', visits: 3, vip: true },
    });
    expect(p.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const evs = await eventsFor('patients', p.id);
    expect(evs.map((e) => e.type)).toEqual(['patients.created']);
    expect(evs[0].event_id).toMatch(/^[0-9a-f-]{36}$/);
    const [audit] = await t.server.app.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'patients'), eq(auditLog.entity_id, p.id)));
    expect(audit).toMatchObject({ action: 'created', actor_type: 'api_key', actor_name: 'Test integration' });
    const [row] = await t.server.app.db.db.select().from(patients).where(eq(patients.id, p.id));
    expect(row.created_by).toBe('Test integration');
    expect((await api.get(`/numbers?patient_id=${p.id}`)).body.data[0].intl_number).toBe('+447700900001');
    expect((await api.get(`/addresses?entity_id=${p.id}`)).body.data[0]).toMatchObject({
      entity_type: 'Patient',
      city: 'London',
    });
  });

  it('prefer_not_to_say is accepted and reads back as null', async () => {
    const res = await api.post('/patients', { body: { first_name: 'A', last_name: 'B', sex: 'prefer_not_to_say' } });
    expect(res.body.data.sex).toBeNull();
  });

  it('PATCH merges: only sent keys change; metadata merges and null removes; note null clears', async () => {
    const created = (
      await api.post('/patients', {
        body: { first_name: 'Al', last_name: 'Turing', note: 'hello', metadata: { a: 1, b: 'x' } },
      })
    ).body.data;
    const res = await api.patch(`/patients/${created.id}`, {
      body: { preferred_name: 'Alan', note: null, metadata: { a: null, c: false } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      first_name: 'Al',
      preferred_name: 'Alan',
      note: null,
      metadata: { b: 'x', c: false },
    });
    expect(res.body.data.metadata).not.toHaveProperty('a');
    expect(Date.parse(res.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    const evs = await eventsFor('patients', created.id);
    expect(evs.map((e) => e.type)).toEqual(['patients.created', 'patients.updated']);
  });

  it('PATCH reconciles numbers by id and merges the address', async () => {
    const created = (
      await api.post('/patients', {
        body: {
          first_name: 'N',
          last_name: 'Umbers',
          numbers: [
            { number: '07700 900011', type: 'mobile' },
            { number: '020 7946 0011', type: 'home' },
          ],
          address: { line_1: '1 Road', city: 'Leeds' },
        },
      })
    ).body.data;
    const [mobile, home] = created.numbers;
    const res = await api.patch(`/patients/${created.id}`, {
      body: {
        numbers: [
          { id: mobile.id, number: '07700 900012', type: 'work' },
          { number: '07700 900013', type: 'other' },
        ],
        address: { city: 'York' },
      },
    });
    expect(res.status).toBe(200);
    const nums = res.body.data.numbers;
    expect(nums).toHaveLength(2);
    expect(nums[0]).toMatchObject({ id: mobile.id, number: '07700 900012', type: 'work' });
    expect(nums.map((n: { id: number }) => n.id)).not.toContain(home.id);
    expect(res.body.data.address).toMatchObject({ line_1: '1 Road', city: 'York' });
    const replaced = await api.patch(`/patients/${created.id}`, {
      body: { numbers: [{ number: '07700 900014', type: 'mobile' }], address: null },
    });
    expect(replaced.body.data.numbers).toHaveLength(1);
    expect(replaced.body.data.address).toBeNull();
    const foreign = await api.patch(`/patients/${created.id}`, {
      body: { numbers: [{ id: 999999, number: '07700 900015', type: 'mobile' }] },
    });
    expectError(foreign, 422, 'invalid_input');
    expect(Object.keys(foreign.body.errors)).toEqual(['numbers.0.id']);
    // One stored number named twice is refused, as a line named twice on an invoice is; nothing changes.
    const kept = replaced.body.data.numbers[0];
    const entry = { id: kept.id, number: kept.number, type: kept.type };
    const twice = await api.patch(`/patients/${created.id}`, {
      body: { numbers: [entry, { ...entry, number: '07700 900017' }] },
    });
    expectError(twice, 422, 'invalid_input');
    expect(Object.keys(twice.body.errors)).toEqual(['numbers.1.id']);
    expect((await api.get(`/patients/${created.id}`)).body.data.numbers).toEqual([kept]);
    expectError(
      await api.patch(`/patients/${created.id}`, { body: { numbers: [{ number: '12', type: 'mobile' }] } }),
      422,
      'validation_failed',
    );
    expectError(
      await api.patch(`/patients/${created.id}`, { body: { numbers: [{ number: '07700 900016' }] } }),
      422,
      'validation_failed',
    );
  });

  it('referral rules', async () => {
    const base = { first_name: 'R', last_name: 'Ef' };
    expectError(
      await api.post('/patients', { body: { ...base, referral_source_id: 1 } }),
      422,
      'referral_source_incomplete',
    );
    expectError(
      await api.post('/patients', { body: { ...base, referral_source_type: 'patient' } }),
      422,
      'referral_source_incomplete',
    );
    expectError(
      await api.post('/patients', {
        body: { ...base, referral_source_id: 999999, referral_source_type: 'referral_source' },
      }),
      422,
      'referral_source_not_found',
    );
    expectError(
      await api.post('/patients', { body: { ...base, referral_source_id: 999999, referral_source_type: 'patient' } }),
      422,
      'patient_not_found',
    );
    const sources = (await api.get('/referral_sources?active=true')).body.data;
    const ok = await api.post('/patients', {
      body: { ...base, referral_source_id: sources[0].id, referral_source_type: 'referral_source' },
    });
    expect(ok.status).toBe(201);
    const inactive = (await api.get('/referral_sources?active=false')).body.data;
    if (inactive.length) {
      expectError(
        await api.post('/patients', {
          body: { ...base, referral_source_id: inactive[0].id, referral_source_type: 'referral_source' },
        }),
        422,
        'referral_source_not_found',
      );
    }
    const self = await api.patch(`/patients/${ok.body.data.id}`, {
      body: { referral_source_id: ok.body.data.id, referral_source_type: 'patient' },
    });
    expectError(self, 422, 'invalid_input');
    expectError(
      await api.post('/patients', { body: { ...base, default_location_id: 999999 } }),
      422,
      'location_not_found',
    );
  });

  it('DELETE soft-deletes: 204, then 404, unlisted, in deleted_entities, and no longer referable', async () => {
    const created = (await api.post('/patients', { body: { first_name: 'Gone', last_name: 'Soon' } })).body.data;
    const del = await api.delete(`/patients/${created.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectError(await api.get(`/patients/${created.id}`), 404, 'not_found');
    expectError(await api.delete(`/patients/${created.id}`), 404, 'not_found');
    expect((await api.get(`/patients?id=${created.id}`)).body.data).toEqual([]);
    const [row] = await t.server.app.db.db.select().from(patients).where(eq(patients.id, created.id));
    expect(row.deleted_at).not.toBeNull();
    const gone = await api.get(`/deleted_entities?entity=patients&entity_id=${created.id}`);
    expect(gone.body.data).toHaveLength(1);
    expect(gone.body.data[0].deleted_at).toMatch(/Z$/);
    const [tomb] = await t.server.app.db.db
      .select()
      .from(deletedEntities)
      .where(
        and(
          eq(deletedEntities.account_id, t.clinic.account.id),
          eq(deletedEntities.entity, 'patients'),
          eq(deletedEntities.entity_id, created.id),
        ),
      );
    // (by entity too: a deleted number may have the same id)
    expect(tomb?.deleted_at).toBe(gone.body.data[0].deleted_at);
    expectError(
      await api.post('/patients', {
        body: { first_name: 'X', last_name: 'Y', referral_source_id: created.id, referral_source_type: 'patient' },
      }),
      422,
      'patient_not_found',
    );
    expect((await eventsFor('patients', created.id)).map((e) => e.type)).toEqual([
      'patients.created',
      'patients.deleted',
    ]);
  });
});
