import { beforeAll, describe, expect, it } from 'vitest';
import { useClinic } from './helpers';

const t = useClinic();
const { api } = t;
const ids: number[] = [];

const people = [
  {
    first_name: 'Anna',
    last_name: 'Smith',
    dob: '1980-01-01',
    email: 'anna@example.com',
    sex: 'female',
    blocked: false,
    metadata: { score: 10, tier: 'gold', vip: true },
  },
  {
    first_name: 'Ben',
    last_name: 'Smith',
    dob: '1990-05-05',
    email: null,
    sex: 'male',
    blocked: true,
    metadata: { score: 9, tier: 'silver' },
  },
  {
    first_name: 'Cara',
    last_name: 'Jones',
    dob: null,
    email: 'cara@example.org',
    sex: null,
    blocked: false,
    metadata: { score: 100, tier: 'gold', vip: false },
  },
  {
    first_name: 'dave',
    last_name: 'Jones_%',
    dob: '2001-12-31',
    email: 'DAVE@EXAMPLE.COM',
    sex: 'other',
    blocked: false,
    metadata: { score: '100' },
  },
  {
    first_name: 'Eve',
    last_name: 'Brown',
    dob: '1980-01-01',
    email: 'eve@example.com',
    sex: 'female',
    blocked: false,
    metadata: {},
  },
];

beforeAll(async () => {
  for (const p of people) ids.push((await api.post('/patients', { body: p })).body.data.id);
});

const names = async (query: string) =>
  (await api.get(`/patients?page_size=100&${query}`)).body.data.map((p: { first_name: string }) => p.first_name);

describe('filters', () => {
  it.each([
    ['last_name=Smith', ['Anna', 'Ben']],
    ['last_name=eq:Smith', ['Anna', 'Ben']],
    ['last_name=ne:Smith', ['Cara', 'dave', 'Eve']],
    ['dob=gt:1980-01-01', ['Ben', 'dave']],
    ['dob=gte:1980-01-01&dob=lt:1990-01-01', ['Anna', 'Eve']],
    ['dob=null', ['Cara']],
    ['dob=not-null&sex=female', ['Anna', 'Eve']],
    ['email=null', ['Ben']],
    ['first_name=like:%a%', ['Anna', 'Cara', 'dave']],
    ['email=contains:example.com', ['Anna', 'dave', 'Eve']],
    ['last_name=contains:s_%', ['dave']],
    ['first_name=contains:AN', ['Anna']],
    ['first_name=in:Anna,Eve,Zed', ['Anna', 'Eve']],
    ['first_name=not-in:Anna,Eve', ['Ben', 'Cara', 'dave']],
    ['dob=between:1985-01-01,2001-12-31', ['Ben', 'dave']],
    ['blocked=true', ['Ben']],
    ['blocked=false', ['Anna', 'Cara', 'dave', 'Eve']],
    ['sex=other', ['dave']],
    ['metadata[tier]=gold', ['Anna', 'Cara']],
    ['metadata[score]=gt:9.5', ['Anna', 'Cara']],
    ['metadata[score]=eq:100', ['Cara']],
    ['metadata[score]=eq:9', ['Ben']],
    ['metadata[vip]=true', ['Anna']],
    ['metadata[vip]=not-null', ['Anna', 'Cara']],
    ['metadata[tier]=null', ['dave', 'Eve']],
    ['metadata[tier]=in:gold,silver', ['Anna', 'Ben', 'Cara']],
  ])('%s', async (query, expected) => {
    expect(await names(query)).toEqual(expected);
  });

  it('id filters and created_at/updated_at polling', async () => {
    expect(await names(`id=gt:${ids[2]}`)).toEqual(['dave', 'Eve']);
    const newest = (await api.get('/patients?sort=updated_at:desc&page_size=1')).body.data[0].updated_at;
    await new Promise((r) => setTimeout(r, 5));
    await api.patch(`/patients/${ids[1]}`, { body: { note: 'touched' } });
    const changed = await names(`updated_at=gt:${newest}`);
    expect(changed).toEqual(['Ben']);
    expect(
      await names(`created_at=lte:${new Date(Date.now() + 60_000).toISOString().replace('.000', '')}`),
    ).toHaveLength(5);
  });
});

describe('sorting', () => {
  it('sorts by one or several attributes with id as the tiebreaker', async () => {
    // Text sorts by code point on both databases: lowercase after uppercase.
    expect(await names('sort=first_name:desc')).toEqual(['dave', 'Eve', 'Cara', 'Ben', 'Anna']);
    expect(await names('sort=last_name,first_name:desc')).toEqual(['Ben', 'Anna', 'dave', 'Cara', 'Eve']);
    expect(await names('sort=dob:asc,first_name:asc')).toEqual(['Cara', 'Anna', 'Eve', 'Ben', 'dave']);
    // Nulls first ascending, last descending; ties broken by id in the direction of the last key.
    expect(await names('sort=dob:desc')).toEqual(['dave', 'Ben', 'Eve', 'Anna', 'Cara']);
  });
});

describe('paging', () => {
  it('offset paging: meta, clamped page, absolute links that keep the filters', async () => {
    const res = await api.get('/patients?page_size=2&page=2&sort=first_name');
    expect(res.body.meta).toEqual({ current_page: 2, per_page: 2, total: 5, last_page: 3, total_estimated: false });
    expect(res.body.data.map((p: { first_name: string }) => p.first_name)).toEqual(['Cara', 'Eve']);
    const next = new URL(res.body.links.next);
    expect(next.origin).toBe(`http://${t.clinic.host}`);
    expect(next.pathname).toBe('/v3/api/patients');
    expect(Object.fromEntries(next.searchParams)).toEqual({ page: '3', page_size: '2', sort: 'first_name' });
    expect(new URL(res.body.links.prev).searchParams.get('page')).toBe('1');
    expect(new URL(res.body.links.first).searchParams.get('page')).toBe('1');
    const clamped = await api.get('/patients?page=99999&page_size=2');
    expect(clamped.status).toBe(200);
    expect(clamped.body.meta.current_page).toBe(10000);
    expect(clamped.body.data).toEqual([]);
    expect(clamped.body.links.next).toBeNull();
  });

  it('cursor paging walks every row once, in order, with has_more and null first/prev', async () => {
    for (const sort of ['first_name:asc', 'dob:desc', 'dob:asc', 'last_name:desc,first_name:asc', '']) {
      const expected = await names(`sort=${sort}`);
      const seen: string[] = [];
      let url: string | null = `/patients?cursor=&page_size=2&sort=${sort}`;
      let pages = 0;
      while (url) {
        const res = await api.get(url);
        expect(res.status).toBe(200);
        expect(res.body.links.first).toBeNull();
        expect(res.body.links.prev).toBeNull();
        expect(res.body.meta.per_page).toBe(2);
        expect(Object.keys(res.body.meta).sort()).toEqual(['has_more', 'per_page']);
        seen.push(...res.body.data.map((p: { first_name: string }) => p.first_name));
        url = res.body.links.next
          ? new URL(res.body.links.next).pathname.replace('/v3/api', '') + new URL(res.body.links.next).search
          : null;
        expect(res.body.meta.has_more).toBe(url !== null);
        pages++;
      }
      expect(seen).toEqual(expected);
      expect(pages).toBe(3);
    }
  });
});
