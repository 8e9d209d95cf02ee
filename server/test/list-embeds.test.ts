import { describe, expect, it } from 'vitest';
import { isPg } from '../../db/dialect';
import { DEEP_OFFSET, listRecords } from '../list/engine';
import { RESOURCES } from '../resources';
import type { Resource } from '../resources/define';
import { useClinic } from './helpers';
import { recordingDb } from './support/recording-db';

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

  it.each(embedding.map((r) => r.name))(
    '%s: a later offset page and a deep one (read by ids first) embed as the first page does',
    async (name) => {
      const all: Record<string, unknown>[] = (await t.api.get(`/${name}?page_size=100`)).body.data;
      const second = await t.api.get(`/${name}?page_size=2&page=2`);
      expect(second.status).toBe(200);
      expect(second.body.data).toEqual(all.slice(2, 4));
      const before = DEEP_OFFSET.rows;
      DEEP_OFFSET.rows = 1;
      try {
        const deep = await t.api.get(`/${name}?page_size=2&page=2`);
        expect(deep.body.data).toEqual(all.slice(2, 4));
      } finally {
        DEEP_OFFSET.rows = before;
      }
    },
  );

  it.runIf(isPg)(
    'a first page, its embeds and its count are one statement whose embeds run once per returned row; a later page reads them in one more (only on PostgreSQL)',
    async () => {
      const r = RESOURCES.appointments as unknown as Resource;
      const url = `http://${t.clinic.host}/v3/api/appointments`;
      const pageOf = async (query: Record<string, string>) => {
        const { db, statements } = recordingDb(t.server);
        const res = await listRecords(r, { db, accountId: t.clinic.account.id, url }, query);
        expect(res.data.length).toBe(3);
        return statements;
      };
      const [first, ...rest] = await pageOf({ page_size: '3' });
      expect(rest, 'nothing reads the patients or the count on its own').toEqual([]);
      expect(first.sql).toMatch(/json_build_object/);
      expect(first.sql).toMatch(/count\(\*\)/);
      const pool = (t.server.app.db as unknown as { pool: import('pg').Pool }).pool;
      const { rows } = await pool.query(`explain (analyze, format json) ${first.sql}`, first.params);
      const loops = [
        ...JSON.stringify(rows[0]['QUERY PLAN']).matchAll(/"Subplan Name":"SubPlan \d+"[^}]*?"Actual Loops":(\d+)/g),
      ];
      expect(loops.length, 'the patient is a subquery of the page').toBeGreaterThan(0);
      for (const [, n] of loops) expect(Number(n)).toBe(3);
      // Past an OFFSET the skipped rows would run the subqueries too: the page's patients come in one statement.
      const later = await pageOf({ page_size: '3', page: '2' });
      expect(later).toHaveLength(2);
      expect(later[0].sql).not.toMatch(/json_build_object/);
      expect(later[1].sql).toMatch(/FROM patients p/);
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
