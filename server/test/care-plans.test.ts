import { describe, expect, it } from 'vitest';
import { expectError, useClinic } from './helpers';

const t = useClinic({ seed: true });
const { api } = t;

describe('care_plans', () => {
  it('a list row carries billing, schedules and members', async () => {
    const res = await api.get('/care_plans?status=active&sort=name');
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { name: string }) => p.name)).toEqual(['Knee rehab programme', 'Massage 5-pack']);
    const [rehab] = res.body.data;
    expect(rehab.billing).toEqual({ type: 'per_period', amount: '120.00', period: 'month' });
    expect(rehab.schedules).toEqual([
      { id: 1, name: 'Standard', visits_planned: 12 },
      { id: 2, name: 'Accelerated', visits_planned: 8 },
    ]);
    expect(rehab.members).toHaveLength(2);
    expect(rehab.members[1].schedule_override).toEqual({ schedule_id: 2 });
    expect(rehab).not.toHaveProperty('tracking');
  });

  it('the single read adds phases with modalities, tracking, and billing periods, services and products', async () => {
    const list = (await api.get('/care_plans?sort=name')).body.data;
    const rehab = (await api.get(`/care_plans/${list[0].id}`)).body.data;
    const standard = rehab.schedules[0];
    expect(standard).toMatchObject({ appointment_type_ids: expect.any(Array), auto_sync: true, sync_status: 'synced' });
    expect(standard.phases[0].modalities[0]).toEqual({ id: expect.any(Number), name: expect.any(String) });
    expect(standard.tracking).toEqual({ members: 1, visits_planned: 12, visits_used: 5, visits_remaining: 7 });
    expect(rehab.schedules[1].tracking).toEqual({ members: 1, visits_planned: 8, visits_used: 2, visits_remaining: 6 });
    expect(rehab.billing.periods).toHaveLength(2);
    expect(rehab.billing.periods[0]).toEqual({ starts_on: '2026-11-01', ends_on: '2026-11-30', amount: '120.00' });
    expect(rehab.billing.services[0]).toMatchObject({
      quantity: 12,
      name: expect.any(String),
      unit_price: expect.stringMatching(/^\d+\.\d{2}$/),
    });
    expect(rehab.billing.products).toHaveLength(1);
    expect(rehab.tracking).toBeNull();

    const pack = (await api.get(`/care_plans/${list[1].id}`)).body.data;
    expect(pack.schedules).toEqual([]);
    expect(pack.tracking).toEqual({ members: 2, visits_planned: 15, visits_used: 3, visits_remaining: 12 });
  });

  it("members carry the plan's tag, locked", async () => {
    const plan = (await api.get('/care_plans?sort=name')).body.data[0];
    for (const m of plan.members) {
      const tag = (await api.get(`/patients/${m.patient_id}`)).body.data.tags.find(
        (t: { id: number }) => t.id === plan.tag_id,
      );
      expect(tag.editable).toBe(false);
      expectError(await api.delete(`/patient_tags/${tag.patient_tag_id}`), 409, 'tag_locked');
    }
  });

  it('a deleted patient leaves the member lists; plans are read-only', async () => {
    const plan = (await api.get('/care_plans?sort=name')).body.data[1];
    await api.delete(`/patients/${plan.members[0].patient_id}`);
    expect((await api.get(`/care_plans/${plan.id}`)).body.data.members).toHaveLength(1);
    expectError(await api.post('/care_plans', { body: { name: 'x' } }), 405, 'unsupported_operation');
    expectError(await api.get('/care_plans/999999'), 404, 'not_found');
  });
});
