import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../resources';
import { useClinic } from './helpers';

const t = useClinic({ seed: true });

// A list page loads embedded records for the whole page at once; a single read selects them with the
// record. Both come from one declaration (db/json.ts) and must read the same.
const embedding = Object.values(RESOURCES).filter((r) => r.embeds && r.list && r.read);
// The attribute each resource's embeds show up in, to check the seeded data exercises them.
const shown: Record<string, string[]> = {
  patients: ['numbers', 'address', 'tags'],
  appointments: ['patient'],
  invoices: ['line_items'],
  payments: ['allocations'],
  care_plans: ['members'],
};
const filled = (v: unknown) => (Array.isArray(v) ? v.length > 0 : v !== null && v !== undefined);

describe('embedded records on list pages', () => {
  it('every resource with embeds is checked here', () => {
    expect(embedding.map((r) => r.name).sort()).toEqual(Object.keys(shown).sort());
  });

  it.each(embedding.map((r) => r.name))(
    '%s: each row of an offset and a cursor page equals its single read',
    async (name) => {
      const offset = await t.api.get(`/${name}?page_size=100`);
      expect(offset.status).toBe(200);
      const rows: Record<string, unknown>[] = offset.body.data;
      expect(rows.length).toBeGreaterThan(1);
      for (const attribute of shown[name]) {
        expect(
          rows.some((r) => filled(r[attribute])),
          `${name}: some row has ${attribute}`,
        ).toBe(true);
      }
      const cursor = await t.api.get(`/${name}?page_size=100&cursor=`);
      expect(cursor.body.data).toEqual(rows);
      for (const row of rows) {
        const one = await t.api.get(`/${name}/${row.id}`);
        expect(one.status).toBe(200);
        // The single read may add detail (a care plan's phases and tracking); it never differs.
        expect(one.body.data).toMatchObject(row);
      }
    },
  );

  it('rows without embedded records read as empty: [] for lists, null for one record', async () => {
    const created = await t.api.post('/patients', { body: { first_name: 'Bare', last_name: 'Embedless' } });
    expect(created.status).toBe(201);
    const page = await t.api.get('/patients?last_name=Embedless');
    expect(page.body.data).toHaveLength(1);
    expect(page.body.data[0]).toMatchObject({ numbers: [], address: null, tags: [] });
  });

  it('an appointment of a deleted patient lists with patient null, as its single read', async () => {
    const list = (await t.api.get('/appointments?page_size=100')).body.data as {
      id: number;
      patient_id: number;
      patient: unknown;
    }[];
    const victim = list.find((a) => a.patient !== null)!;
    expect((await t.api.delete(`/patients/${victim.patient_id}`)).status).toBe(204);
    const after = (await t.api.get(`/appointments?patient_id=${victim.patient_id}`)).body.data as {
      patient: unknown;
    }[];
    expect(after.length).toBeGreaterThan(0);
    for (const a of after) expect(a.patient).toBeNull();
    expect((await t.api.get(`/appointments/${victim.id}`)).body.data.patient).toBeNull();
  });
});
