/**
 * A soft-deleted patient is no longer returned, and neither is what is theirs alone: numbers, address,
 * timeline entries and their tags, files and their bytes, clinical notes and tag placements answer 404
 * and drop out of lists. Appointments stay (the diary and the books keep them) with `patient: null`.
 */
import { describe, expect, it } from 'vitest';
import { expectError, multipart, useClinic } from './helpers';

const t = useClinic({ seed: true });
const { api } = t;

const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((r) => r.id);
/** How many events of `type` the feed holds for record `id`. */
const announced = async (type: string, id: number) =>
  (await api.get(`/events?type=eq:${type}&data.id=eq:${id}`)).body.data.length;
/** How many deleted_entities rows name the record. */
const tombstoned = async (entity: string, id: number) =>
  (await api.get(`/deleted_entities?entity=eq:${entity}&entity_id=eq:${id}`)).body.data.length;

describe('deleting a patient', () => {
  it('hides their numbers, address, timeline, files, notes and tag placements; keeps their appointments without the embed', async () => {
    const seeded = (await api.get('/appointments?page_size=1&sort=id')).body.data[0];
    const patient = (
      await api.post('/patients', {
        body: {
          first_name: 'Gone',
          last_name: 'Soon',
          numbers: [{ number: '07700900999', type: 'mobile' }],
          address: { line_1: '1 Lane', city: 'London' },
        },
      })
    ).body.data;
    const p = patient.id;
    const log = (await api.post('/patient_logs', { body: { patient_id: p, type: 'note', data: 'seen' } })).body.data.id;
    const note = (await api.post('/clinical_notes', { body: { patient_id: p, title: 'Visit', body: 'Fine.' } })).body
      .data.id;
    const upload = multipart(
      { patient_id: String(p), file_type: 'generic' },
      { name: 'a.txt', type: 'text/plain', bytes: Buffer.from('a') },
    );
    const file = (await api.post('/files', upload)).body.data.id;
    const tagId = (await api.get('/tags')).body.data[0].id;
    const placement = (await api.post('/patient_tags', { body: { patient_id: p, tag_id: tagId } })).body.data.id;
    const appointment = (
      await api.post('/appointments', {
        body: {
          patient_id: p,
          practitioner_id: seeded.practitioner_id,
          location_id: seeded.location_id,
          appointment_type_id: seeded.appointment_type_id,
          starts_at: '2031-03-03T07:00:00',
          allow_clash: true,
        },
      })
    ).body.data.id;
    const number = patient.numbers[0].id;
    const address = (await api.get(`/addresses?entity_id=${p}`)).body.data[0].id;
    const singles = [
      `/numbers/${number}`,
      `/addresses/${address}`,
      `/patient_logs/${log}`,
      `/clinical_notes/${note}`,
      `/files/${file}`,
      `/files/${file}/download`,
    ];
    const lists = [
      `/numbers?patient_id=${p}`,
      `/addresses?entity_id=${p}`,
      `/patient_logs?patient_id=${p}`,
      `/clinical_notes?patient_id=${p}`,
      `/files?patient_id=${p}`,
    ];
    for (const path of singles) expect((await api.get(path)).status, path).toBe(200);
    for (const path of lists) expect((await api.get(path)).body.data.length, path).toBeGreaterThan(0);

    expect((await api.delete(`/patients/${p}`)).status).toBe(204);

    for (const path of singles) expectError(await api.get(path), 404, 'not_found');
    for (const path of lists) expect((await api.get(path)).body.data, path).toEqual([]);
    expect(ids(await api.get(`/numbers?id=${number}`))).toEqual([]);
    expectError(await api.patch(`/files/${file}`, { body: { description: 'x' } }), 404, 'not_found');
    expectError(await api.delete(`/files/${file}`), 404, 'not_found');
    expectError(await api.delete(`/patient_tags/${placement}`), 404, 'not_found');
    expectError(
      await api.post('/patient_logs', { body: { patient_id: p, type: 'note', data: 'late' } }),
      422,
      'patient_not_found',
    );

    // Each record hidden with the patient is announced as deleted and listed in deleted_entities, so a
    // mirror built from webhooks, the feed or polling drops it too.
    for (const [entity, id] of [
      ['numbers', number],
      ['addresses', address],
      ['patient_logs', log],
      ['files', file],
    ] as const) {
      expect(await announced(`${entity}.deleted`, id), `${entity}.deleted ${id}`).toBe(1);
      expect(await tombstoned(entity, id), `deleted_entities ${entity} ${id}`).toBe(1);
    }
    // Notes have no .deleted event in the catalogue: the patient's patients.deleted announces them.
    expect(await tombstoned('clinical_notes', note)).toBe(1);
    expect(await announced('patients.deleted', p)).toBe(1);

    const kept = await api.get(`/appointments/${appointment}`);
    expect(kept.status).toBe(200);
    expect(kept.body.data.patient).toBeNull();
    expect(kept.body.data.patient_id).toBe(p);
  });

  it('hides the tags of their timeline entries', async () => {
    const tagged = (await api.get('/patient_log_tags?page_size=1&sort=id')).body.data[0];
    expect(tagged, 'the seed tags a timeline entry').toBeDefined();
    const owner = (await api.get(`/patient_logs/${tagged.patient_log_id}`)).body.data.patient_id;
    expect((await api.delete(`/patients/${owner}`)).status).toBe(204);
    expectError(await api.get(`/patient_log_tags/${tagged.id}`), 404, 'not_found');
    expect(ids(await api.get(`/patient_log_tags?patient_log_id=${tagged.patient_log_id}`))).toEqual([]);
    expect(await announced('patient_log_tags.deleted', tagged.id)).toBe(1);
    expect(await tombstoned('patient_log_tags', tagged.id)).toBe(1);
    expect(await announced('patient_logs.deleted', tagged.patient_log_id)).toBe(1);
  });
});
