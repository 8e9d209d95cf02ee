import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { useClinic } from './helpers';

const t = useClinic({ seed: true });
const { api } = t;

describe('utility endpoints', () => {
  it('GET /ping answers pong with request id and rate-limit headers', async () => {
    const res = await api.get('/ping');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ pong: true });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(res.headers['x-ratelimit-limit'])).toBeGreaterThan(0);
    expect(res.headers['x-ratelimit-remaining']).toBeDefined();
  });

  it('GET /me returns the integration, its scopes and the account', async () => {
    const res = await api.get('/me');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        type: 'api_key',
        id: expect.any(Number),
        name: 'Test integration',
        scopes: ['read', 'write'],
        restricted: false,
        permissions: {
          patients: 'write',
          clinical: 'write',
          scheduling: 'write',
          billing: 'write',
          files: 'write',
          practice: 'write',
        },
        allowed_ips: null,
        account: { id: t.clinic.account.id, name: 'Test Clinic', timezone: 'Europe/London', currency: 'GBP' },
      },
    });
    const ro = await api.get('/me', { key: t.clinic.readOnlyKey });
    expect(ro.body.data.scopes).toEqual(['read']);
  });

  it('GET /schema lists resources and /schema/{resource} describes one from its declaration', async () => {
    const index = await api.get('/schema');
    expect(index.status).toBe(200);
    const names = index.body.data.map((r: { name: string }) => r.name);
    expect(names).toEqual(
      expect.arrayContaining(['patients', 'locations', 'practitioners', 'addresses', 'numbers', 'deleted_entities']),
    );
    // Every resource of the specification is listed (those not served yet say so), and the additive events feed.
    const spec =
      'events appointments availability appointment_types practitioner_availabilities resources patients tags patient_tags numbers addresses patient_logs patient_log_tags files care_plans clinical_notes form_templates invoices line_items payments refunds payment_allocations payment_methods billable_items locations practitioners modalities referral_sources deleted_entities';
    expect([...names].sort()).toEqual(spec.split(' ').sort());
    for (const r of index.body.data) {
      const described = await api.get(`/schema/${r.name}`);
      expect(described.status).toBe(r.available ? 200 : 404);
    }
    const patients = await api.get('/schema/patients');
    expect(patients.status).toBe(200);
    expect(patients.body.data.write_operations).toEqual(['create', 'update', 'delete']);
    expect(patients.body.data.attributes.first_name).toMatchObject({
      type: 'string',
      max_length: 255,
      filterable: true,
      sortable: true,
      writable: 'required',
    });
    expect(patients.body.data.attributes.sex.enum).toEqual(['male', 'female', 'other']);
    expect(patients.body.data.input_rules.create.required).toEqual(['first_name', 'last_name']);
    const locations = await api.get('/schema/locations');
    expect(locations.body.data.write_operations).toEqual([]);
    const addresses = await api.get('/schema/addresses');
    expect(addresses.body.data.filtering.filterable).toHaveLength(12);
    expect(addresses.body.data.sorting.sortable).toEqual(['id', 'created_at', 'updated_at']);
  });

  it('serves a valid OpenAPI 3.1 document without a key', async () => {
    const res = await api.get('/openapi.json', { key: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const validation = await new Validator().validate(res.body);
    expect(validation.errors ?? []).toEqual([]);
    expect(validation.valid).toBe(true);
    const create = res.body.paths['/patients'].post;
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '401', '403', '409', '422', '429']));
    expect(create.responses['422'].content['application/json'].schema.$ref).toBe('#/components/schemas/ApiError');
    expect(create.parameters.some((p: { name: string }) => p.name === 'Idempotency-Key')).toBe(true);
    expect(Object.keys(res.body.paths['/patients/{id}'].delete.responses)).toContain('204');
    const list = res.body.paths['/patients'].get;
    const params = list.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(['page', 'page_size', 'cursor', 'sort', 'last_name', 'metadata']));
  });
});

describe('one declaration drives every surface', () => {
  it('the operations in /schema are exactly the routes in the OpenAPI document', async () => {
    const doc = (await api.get('/openapi.json', { key: null })).body;
    const index = (await api.get('/schema')).body.data.filter((r: { available: boolean }) => r.available);
    for (const r of index) {
      const described = (await api.get(`/schema/${r.name}`)).body.data;
      const methods = (path: string) => Object.keys(doc.paths[path] ?? {}).sort();
      if (described.operations.includes('search')) {
        // A search (availability) is one GET at its own path.
        expect({ resource: r.name, methods: methods(described.path) }).toEqual({ resource: r.name, methods: ['get'] });
        continue;
      }
      for (const [name, action] of Object.entries<{ path: string }>(described.actions ?? {})) {
        expect({ resource: r.name, action: name, methods: methods(action.path) }).toEqual({
          resource: r.name,
          action: name,
          methods: ['post'],
        });
      }
      const collection = [
        ...(described.operations.includes('list') ? ['get'] : []),
        ...(described.write_operations.includes('create') ? ['post'] : []),
      ];
      const member = [
        ...(described.write_operations.includes('delete') ? ['delete'] : []),
        ...(described.operations.includes('read') ? ['get'] : []),
        ...(described.write_operations.includes('update') ? ['patch'] : []),
      ];
      expect({ resource: r.name, methods: methods(`/${r.name}`) }).toEqual({
        resource: r.name,
        methods: collection.sort(),
      });
      expect({ resource: r.name, methods: methods(`/${r.name}/{id}`) }).toEqual({
        resource: r.name,
        methods: member.sort(),
      });
    }
  });
});

describe('seeded resources', () => {
  const names = [
    'appointments',
    'invoices',
    'line_items',
    'payments',
    'payment_allocations',
    'refunds',
    'locations',
    'practitioners',
    'appointment_types',
    'modalities',
    'resources',
    'practitioner_availabilities',
    'tags',
    'payment_methods',
    'billable_items',
    'referral_sources',
    'addresses',
    'numbers',
    'patient_logs',
    'patient_log_tags',
    'clinical_notes',
    'form_templates',
    'files',
    'care_plans',
  ];
  it.each(names)('%s: list and read one', async (name) => {
    const list = await api.get(`/${name}`);
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(0);
    expect(list.body.meta).toMatchObject({ current_page: 1, per_page: 25 });
    const first = list.body.data[0];
    const one = await api.get(`/${name}/${first.id}`);
    expect(one.status).toBe(200);
    // A care plan's single read is a superset of its list row (phases, tracking, billing details).
    if (name === 'care_plans') expect(one.body.data).toMatchObject(first);
    else expect(one.body.data).toEqual(first);
  });

  it('the seeded diary has appointments in every status, a group class, and a resource booking', async () => {
    const all = (await api.get('/appointments?page_size=100')).body.data as {
      status: string;
      group_master_id: number | null;
      resource_id: number | null;
    }[];
    expect(new Set(all.map((a) => a.status))).toEqual(new Set(['booked', 'arrived', 'missed', 'cancelled']));
    expect(all.filter((a) => a.group_master_id !== null)).toHaveLength(2);
    expect(all.some((a) => a.resource_id !== null)).toBe(true);
  });

  it('the seeded ledger has invoices in every state, a third-party split, several methods and a refund', async () => {
    const invoices = (await api.get('/invoices?page_size=100')).body.data as {
      state: string;
      type: string;
      balance: string;
    }[];
    expect(new Set(invoices.map((i) => i.state))).toEqual(new Set(['open', 'partially_paid', 'paid']));
    expect(invoices.some((i) => i.type === 'split')).toBe(true);
    const payments = (await api.get('/payments?page_size=100')).body.data as {
      payment_method_id: number;
      status: string;
    }[];
    expect(new Set(payments.map((p) => p.payment_method_id)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(payments.map((p) => p.status))).toEqual(
      new Set(['allocated', 'partially_allocated', 'unallocated']),
    );
    expect((await api.get('/refunds')).body.data).toHaveLength(1);
    expect((await api.get('/payment_allocations')).body.data.length).toBeGreaterThanOrEqual(4);
  });

  it('seeded calendar data has the shapes integrators rely on', async () => {
    const types = (await api.get('/appointment_types?page_size=100')).body.data;
    expect(types.some((t: { online_booking: boolean }) => !t.online_booking)).toBe(true);
    expect(types.some((t: { max_attendees: number | null }) => (t.max_attendees ?? 0) > 1)).toBe(true);
    const avail = (await api.get('/practitioner_availabilities?page_size=100')).body.data;
    const kinds = new Set(avail.map((a: { type: string }) => a.type));
    expect([...kinds].sort()).toEqual(['appt_guide', 'blockout', 'break', 'closed', 'custom_availability', 'open']);
    const weekly = avail.find((a: { day: string | null }) => a.day !== null);
    expect(weekly.starts_at).toMatch(/^\d{2}:\d{2}$/);
    const dated = avail.find((a: { day: string | null }) => a.day === null);
    expect(dated.starts_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    const methods = (await api.get('/payment_methods?active=false')).body.data;
    expect(methods.length).toBeGreaterThan(0);
    expect(methods.every((m: { active: boolean }) => m.active === false)).toBe(true);
    const items = (await api.get('/billable_items')).body.data;
    expect(items[0].price).toMatch(/^\d+\.\d{2}$/);
  });
});
