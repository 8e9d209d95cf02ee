import { beforeAll, describe, expect, it } from 'vitest';
import { patientTags } from '../../db/schema';
import { eventTypes, expectError, useClinic } from './helpers';

const t = useClinic({ seed: true });
const { api } = t;
let patientId: number;
let tagIds: number[];

beforeAll(async () => {
  patientId = (await api.post('/patients', { body: { first_name: 'Tag', last_name: 'Target' } })).body.data.id;
  tagIds = (await api.get('/tags')).body.data.map((t: { id: number }) => t.id);
});

const patientEvents = (id: number) => eventTypes(t.server, t.clinic, 'patients', id);

describe('patient_tags', () => {
  it('POST places a tag (201), the patient read embeds it, and patients.updated is announced', async () => {
    const res = await api.post('/patient_tags', { body: { patient_id: patientId, tag_id: tagIds[0] } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ patient_id: patientId, tag_id: tagIds[0], editable: true });
    const patient = (await api.get(`/patients/${patientId}`)).body.data;
    expect(patient.tags).toEqual([
      expect.objectContaining({
        id: tagIds[0],
        patient_tag_id: res.body.data.id,
        editable: true,
        added_at: expect.stringMatching(/Z$/),
      }),
    ]);
    expect(await patientEvents(patientId)).toEqual(['patients.created', 'patients.updated']);
  });

  it('the same tag twice → 409 conflict; unknown patient → 422 patient_not_found; unknown tag → 422 invalid_input', async () => {
    expectError(
      await api.post('/patient_tags', { body: { patient_id: patientId, tag_id: tagIds[0] } }),
      409,
      'conflict',
    );
    expectError(
      await api.post('/patient_tags', { body: { patient_id: 999999, tag_id: tagIds[1] } }),
      422,
      'patient_not_found',
    );
    const res = await api.post('/patient_tags', { body: { patient_id: patientId, tag_id: 999999 } });
    expectError(res, 422, 'invalid_input');
    expect(Object.keys(res.body.errors)).toEqual(['tag_id']);
  });

  it('reads are 405 unsupported_operation (write-only resource)', async () => {
    expectError(await api.get('/patient_tags'), 405, 'unsupported_operation');
  });

  it('DELETE removes an editable tag (204) and announces patients.updated', async () => {
    const placed = (await api.post('/patient_tags', { body: { patient_id: patientId, tag_id: tagIds[1] } })).body.data;
    expect((await api.delete(`/patient_tags/${placed.id}`)).status).toBe(204);
    const tags = (await api.get(`/patients/${patientId}`)).body.data.tags.map((t: { id: number }) => t.id);
    expect(tags).not.toContain(tagIds[1]);
    expectError(await api.delete(`/patient_tags/${placed.id}`), 404, 'not_found');
    expect((await patientEvents(patientId)).slice(-2)).toEqual(['patients.updated', 'patients.updated']);
  });

  it('a tag placed by a care plan cannot be removed: 409 tag_locked', async () => {
    const now = new Date().toISOString();
    const [locked] = await t.server.app.db.transaction((tx) =>
      tx
        .insert(patientTags)
        .values({
          account_id: t.clinic.account.id,
          patient_id: patientId,
          tag_id: tagIds[2],
          editable: false,
          created_at: now,
          updated_at: now,
        })
        .returning(),
    );
    expectError(await api.delete(`/patient_tags/${locked.id}`), 409, 'tag_locked');
    const tag = (await api.get(`/patients/${patientId}`)).body.data.tags.find(
      (t: { id: number }) => t.id === tagIds[2],
    );
    expect(tag.editable).toBe(false);
  });
});

describe('patient_logs', () => {
  it('create → 201 with source api; read; list filtered by patient and type', async () => {
    const res = await api.post('/patient_logs', {
      body: {
        patient_id: patientId,
        type: 'comms',
        data: 'Called about results',
        sub_type: 'phone',
        source_entity: 'crm-sync',
        metadata: { call_id: 77 },
      },
      headers: { 'Idempotency-Key': `log-${patientId}` },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      patient_id: patientId,
      type: 'comms',
      source: 'api',
      sub_type: 'phone',
      source_entity: 'crm-sync',
      data: 'Called about results',
    });
    expect((await api.get(`/patient_logs/${res.body.data.id}`)).body.data).toEqual(res.body.data);
    const listed = (await api.get(`/patient_logs?patient_id=${patientId}&type=comms&source=api`)).body.data;
    expect(listed.map((l: { id: number }) => l.id)).toEqual([res.body.data.id]);
    const replay = await api.post('/patient_logs', {
      body: {
        patient_id: patientId,
        type: 'comms',
        data: 'Called about results',
        sub_type: 'phone',
        source_entity: 'crm-sync',
        metadata: { call_id: 77 },
      },
      headers: { 'Idempotency-Key': `log-${patientId}` },
    });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await api.get(`/patient_logs?patient_id=${patientId}`)).body.meta.total).toBe(1);
  });

  it('refuses a missing or deleted patient, a bad type, missing data and too-long labels', async () => {
    expectError(
      await api.post('/patient_logs', { body: { patient_id: 999999, type: 'note', data: 'x' } }),
      422,
      'patient_not_found',
    );
    const gone = (await api.post('/patients', { body: { first_name: 'Gone', last_name: 'Away' } })).body.data.id;
    await api.delete(`/patients/${gone}`);
    expectError(
      await api.post('/patient_logs', { body: { patient_id: gone, type: 'note', data: 'x' } }),
      422,
      'patient_not_found',
    );
    expectError(
      await api.post('/patient_logs', { body: { patient_id: patientId, type: 'diary', data: 'x' } }),
      422,
      'validation_failed',
    );
    expectError(
      await api.post('/patient_logs', { body: { patient_id: patientId, type: 'note' } }),
      422,
      'validation_failed',
    );
    expectError(
      await api.post('/patient_logs', {
        body: { patient_id: patientId, type: 'note', data: 'x', sub_type: 's'.repeat(256) },
      }),
      422,
      'validation_failed',
    );
    expectError(
      await api.post('/patient_logs', { body: { patient_id: patientId, type: 'note', data: 'x', source: 'staff' } }),
      422,
      'validation_failed',
    );
  });

  it('is not updatable or deletable: 405 unsupported_operation', async () => {
    const log = (await api.post('/patient_logs', { body: { patient_id: patientId, type: 'note', data: 'x' } })).body
      .data;
    expectError(await api.patch(`/patient_logs/${log.id}`, { body: { data: 'y' } }), 405, 'unsupported_operation');
    expectError(await api.delete(`/patient_logs/${log.id}`), 405, 'unsupported_operation');
  });
});

describe('referral_sources', () => {
  it('create, update, and an inactive source is refused as a referral', async () => {
    const created = await api.post('/referral_sources', { body: { name: 'Dr Who Surgery', category: 'GP' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Dr Who Surgery', category: 'GP', active: true });
    const id = created.body.data.id;
    const ok = await api.post('/patients', {
      body: { first_name: 'R', last_name: 'S', referral_source_id: id, referral_source_type: 'referral_source' },
    });
    expect(ok.status).toBe(201);
    const updated = await api.patch(`/referral_sources/${id}`, { body: { active: false } });
    expect(updated.body.data).toMatchObject({ name: 'Dr Who Surgery', active: false });
    expectError(
      await api.post('/patients', {
        body: { first_name: 'R', last_name: 'S', referral_source_id: id, referral_source_type: 'referral_source' },
      }),
      422,
      'referral_source_not_found',
    );
    expectError(await api.post('/referral_sources', { body: { name: '' } }), 422, 'validation_failed');
    expectError(await api.patch('/referral_sources/999999', { body: { name: 'x' } }), 404, 'not_found');
    expectError(await api.delete(`/referral_sources/${id}`), 405, 'unsupported_operation');
  });
});

describe('clinical_notes', () => {
  it('create → 201; read; list by patient; a historical created_at is kept', async () => {
    const practitioner = (await api.get('/practitioners')).body.data[0].id;
    const res = await api.post('/clinical_notes', {
      body: {
        patient_id: patientId,
        practitioner_id: practitioner,
        title: 'Initial assessment',
        body: 'S: ... O: ... A: ... P: ...',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      patient_id: patientId,
      practitioner_id: practitioner,
      title: 'Initial assessment',
    });
    expect(Math.abs(Date.parse(res.body.data.created_at) - Date.now())).toBeLessThan(60_000);
    const old = await api.post('/clinical_notes', {
      body: {
        patient_id: patientId,
        title: 'Imported',
        body: 'From the old system',
        created_at: '2019-03-04T10:00:00Z',
      },
    });
    expect(old.status).toBe(201);
    expect(old.body.data.created_at).toBe('2019-03-04T10:00:00.000Z');
    expect(old.body.data.updated_at).not.toBe(old.body.data.created_at);
    const listed = (await api.get(`/clinical_notes?patient_id=${patientId}&sort=created_at:asc`)).body.data.map(
      (n: { title: string }) => n.title,
    );
    expect(listed).toEqual(['Imported', 'Initial assessment']);
    expect(
      (await api.get(`/clinical_notes?created_at=lt:2020-01-01T00:00:00Z&patient_id=${patientId}`)).body.data,
    ).toHaveLength(1);
  });

  it('refuses a future created_at, a missing patient or practitioner, and missing text', async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expectError(
      await api.post('/clinical_notes', { body: { patient_id: patientId, title: 'x', body: 'y', created_at: future } }),
      422,
      'invalid_input',
    );
    expectError(
      await api.post('/clinical_notes', { body: { patient_id: 999999, title: 'x', body: 'y' } }),
      422,
      'patient_not_found',
    );
    expectError(
      await api.post('/clinical_notes', {
        body: { patient_id: patientId, practitioner_id: 999999, title: 'x', body: 'y' },
      }),
      422,
      'practitioner_not_found',
    );
    expectError(
      await api.post('/clinical_notes', { body: { patient_id: patientId, title: 'x' } }),
      422,
      'validation_failed',
    );
    expectError(
      await api.post('/clinical_notes', {
        body: { patient_id: patientId, title: 'x', body: 'y', created_at: 'yesterday' },
      }),
      422,
      'validation_failed',
    );
  });
});

describe('form_templates', () => {
  it('are read-only, with their questions', async () => {
    const list = await api.get('/form_templates?active=true&category=intake');
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(0);
    expect(list.body.data[0].questions[0]).toMatchObject({
      key: expect.any(String),
      label: expect.any(String),
      required: expect.any(Boolean),
    });
    expectError(await api.post('/form_templates', { body: { name: 'x' } }), 405, 'unsupported_operation');
  });
});
