import { and, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { idempotencyKeys } from '../../db/schema';
import { sweepIdempotencyKeys } from '../rest/idempotency-sweep';
import { client, expectError, newClinic, uniqueName, useClinic } from './helpers';

const t = useClinic();
const { api } = t;

const countByLastName = async (name: string) => (await api.get(`/patients?last_name=${name}`)).body.meta.total;

describe('Idempotency-Key', () => {
  it('a retry replays the stored response with Idempotent-Replayed: true and creates nothing new', async () => {
    const last = uniqueName('Idem');
    const headers = { 'Idempotency-Key': uniqueName('key') };
    const first = await api.post('/patients', { body: { first_name: 'A', last_name: last }, headers });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await api.post('/patients', { body: { first_name: 'A', last_name: last }, headers });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await countByLastName(last)).toBe(1);
  });

  it('a keyed write commits once, as an unkeyed one does: the claim, the write and its answer in one transaction', async () => {
    const db = t.server.app.db;
    const committed = async (headers: Record<string, string>) => {
      const spy = vi.spyOn(db, 'transaction');
      try {
        const res = await api.post('/patients', {
          body: { first_name: 'One', last_name: uniqueName('Commit') },
          headers,
        });
        expect(res.status).toBe(201);
        return spy.mock.calls.length;
      } finally {
        spy.mockRestore();
      }
    };
    // The fewest of three: a background flush (the request log's) may open a transaction during one.
    const fewest = async (headers: () => Record<string, string>) => {
      const counts: number[] = [];
      for (let i = 0; i < 3; i++) counts.push(await committed(headers()));
      return Math.min(...counts);
    };
    await committed({});
    const plain = await fewest(() => ({}));
    const keyed = await fewest(() => ({ 'Idempotency-Key': uniqueName('key') }));
    expect(plain).toBeGreaterThanOrEqual(1);
    expect(keyed).toBe(plain);
  });

  it('the same key with a different body → 422 idempotency_key_reused', async () => {
    const headers = { 'Idempotency-Key': uniqueName('key') };
    await api.post('/patients', { body: { first_name: 'A', last_name: 'One' }, headers });
    expectError(
      await api.post('/patients', { body: { first_name: 'A', last_name: 'Two' }, headers }),
      422,
      'idempotency_key_reused',
    );
  });

  it('a key over 255 characters → 422 idempotency_key_invalid', async () => {
    const res = await api.post('/patients', {
      body: { first_name: 'A', last_name: 'B' },
      headers: { 'Idempotency-Key': 'k'.repeat(256) },
    });
    expectError(res, 422, 'idempotency_key_invalid');
  });

  it('keys are scoped per account', async () => {
    const other = await newClinic(t.server);
    const key = uniqueName('shared');
    const a = await api.post('/patients', {
      body: { first_name: 'A', last_name: 'Scoped' },
      headers: { 'Idempotency-Key': key },
    });
    const b = await client(t.server, other).post('/patients', {
      body: { first_name: 'A', last_name: 'Scoped' },
      headers: { 'Idempotency-Key': key },
    });
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.body.data.id).not.toBe(a.body.data.id);
  });

  it('a validation failure is not stored: the corrected retry with the same key succeeds', async () => {
    const headers = { 'Idempotency-Key': uniqueName('key') };
    expectError(await api.post('/patients', { body: { first_name: 'A' }, headers }), 422, 'validation_failed');
    const fixed = await api.post('/patients', { body: { first_name: 'A', last_name: 'Fixed' }, headers });
    expect(fixed.status).toBe(201);
  });

  it('concurrent retries create exactly one record; the others are replays or 409 in flight', async () => {
    const last = uniqueName('Race');
    const headers = { 'Idempotency-Key': uniqueName('key') };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => api.post('/patients', { body: { first_name: 'R', last_name: last }, headers })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    for (const r of results) {
      if (r.status === 409) expectError(r, 409, 'idempotency_key_in_flight');
      else expect(r.status).toBe(201);
    }
    const created = results.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined);
    expect(created).toHaveLength(1);
    expect(await countByLastName(last)).toBe(1);
  });
});

describe('retention', () => {
  it('the sweep removes stored responses older than 24 hours and keeps the rest', async () => {
    const db = t.server.app.db;
    const acc = t.clinic.account.id;
    const old = new Date(Date.now() - 25 * 3600_000).toISOString();
    await db.transaction((tx) =>
      tx.insert(idempotencyKeys).values([
        {
          account_id: acc,
          key: 'sweep-old',
          fingerprint: 'f',
          state: 'done',
          status: 201,
          body: '{}',
          created_at: old,
        },
        {
          account_id: acc,
          key: 'sweep-new',
          fingerprint: 'f',
          state: 'done',
          status: 201,
          body: '{}',
          created_at: new Date().toISOString(),
        },
      ]),
    );
    expect((await sweepIdempotencyKeys(db)).deleted).toBeGreaterThanOrEqual(1);
    const left = async (key: string) =>
      (
        await db.db
          .select()
          .from(idempotencyKeys)
          .where(and(eq(idempotencyKeys.account_id, acc), eq(idempotencyKeys.key, key)))
      ).length;
    expect(await left('sweep-old')).toBe(0);
    expect(await left('sweep-new')).toBe(1);
  });
});
