/**
 * Rules the README and docs/decisions.md state that had no test of their own: idempotency windows,
 * key rotation and expiry dates, rate-limit accounting, the metadata bound after merging, and how `ne`
 * and `not-in` treat nulls. Each through HTTP, on both databases.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiKeys, idempotencyKeys } from '../../db/schema';
import { forgetCachedKeys } from '../auth/authenticate';
import { createKey, revokeKey, rotateKey } from '../domain/api_keys';
import { fingerprint } from '../rest/idempotency';
import {
  client,
  type Clinic,
  expectError,
  newClinic,
  request,
  startServer,
  type TestServer,
  useClinic,
  storedIdempotencyKey,
} from './helpers';

const t = useClinic();
const { api } = t;
const actor = { actor_type: 'user' as const, actor_id: null, actor_name: 'rules test' };

describe('idempotency windows', () => {
  const body = (n: string) => ({ first_name: 'Idem', last_name: n });
  /** A stored claim or record for `key`, as another request (or an older one) would have left it. */
  const store = (
    key: string,
    b: object,
    state: 'in_flight' | 'done',
    ageMs: number,
    response?: { status: number; body: string },
  ) =>
    t.server.app.db.transaction(async (tx) =>
      tx.insert(idempotencyKeys).values({
        account_id: t.clinic.account.id,
        key: await storedIdempotencyKey(t.server, t.clinic, key),
        fingerprint: fingerprint('POST', '/patients', JSON.stringify(b)),
        state,
        status: response?.status ?? null,
        body: response?.body ?? null,
        created_at: new Date(Date.now() - ageMs).toISOString(),
      }),
    );

  it('a claim still in progress → 409 idempotency_key_in_flight, nothing created', async () => {
    const before = (await api.get('/patients?last_name=InFlight')).body.meta.total;
    await store('rules-in-flight', body('InFlight'), 'in_flight', 1_000);
    const res = await api.post('/patients', {
      body: body('InFlight'),
      headers: { 'idempotency-key': 'rules-in-flight' },
    });
    expectError(res, 409, 'idempotency_key_in_flight');
    expect((await api.get('/patients?last_name=InFlight')).body.meta.total).toBe(before);
  });

  it('a claim stuck for over a minute is taken over: the request runs', async () => {
    await store('rules-stuck', body('Stuck'), 'in_flight', 2 * 60_000);
    const res = await api.post('/patients', { body: body('Stuck'), headers: { 'idempotency-key': 'rules-stuck' } });
    expect(res.status).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a record older than 24 hours no longer replays', async () => {
    await store('rules-old', body('Old'), 'done', 25 * 3600_000, { status: 201, body: '{"data":{"id":-1}}' });
    const res = await api.post('/patients', { body: body('Old'), headers: { 'idempotency-key': 'rules-old' } });
    expect(res.status).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(res.body.data.id).toBeGreaterThan(0);
    const replay = await api.post('/patients', { body: body('Old'), headers: { 'idempotency-key': 'rules-old' } });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.data.id).toBe(res.body.data.id);
  });
});

describe('keys', () => {
  const row = async (id: number) => (await t.server.app.db.db.select().from(apiKeys).where(eq(apiKeys.id, id)))[0];

  it.each([
    ['90d', 90],
    ['1y', 365],
  ] as const)('an expiry of %s is exactly %i days from creation', async (expires, days) => {
    const issued = await createKey(t.server.app.db, t.clinic.account, actor, {
      name: `Expires ${expires}`,
      access: 'read_write',
      expires,
    });
    const r = await row(issued.id);
    expect(Date.parse(r.expires_at!) - Date.parse(r.created_at)).toBe(days * 86_400_000);
  });

  it('rotation keeps the expiry date exactly', async () => {
    const issued = await createKey(t.server.app.db, t.clinic.account, actor, {
      name: 'Rotate keeps expiry',
      access: 'read_only',
      expires: '90d',
    });
    const before = (await row(issued.id)).expires_at;
    await rotateKey(t.server.app.db, t.clinic.account, actor, issued.id);
    expect((await row(issued.id)).expires_at).toBe(before);
  });

  it('revoking a key in its rotation grace ends both secrets', async () => {
    const issued = await createKey(t.server.app.db, t.clinic.account, actor, {
      name: 'Revoked in grace',
      access: 'read_write',
    });
    const rotated = await rotateKey(t.server.app.db, t.clinic.account, actor, issued.id);
    expect((await client(t.server, t.clinic, issued.secret).get('/me')).status).toBe(200);
    expect((await client(t.server, t.clinic, rotated.secret).get('/me')).status).toBe(200);
    await revokeKey(t.server.app.db, t.clinic.account, actor, issued.id);
    // At once: the revoking process forgets its cached keys.
    expectError(await client(t.server, t.clinic, issued.secret).get('/me'), 401, 'unauthenticated');
    expectError(await client(t.server, t.clinic, rotated.secret).get('/me'), 401, 'unauthenticated');
  });

  it('last_used_at is written at most once a minute', async () => {
    const issued = await createKey(t.server.app.db, t.clinic.account, actor, { name: 'Used', access: 'read_write' });
    expect((await client(t.server, t.clinic, issued.secret).get('/me')).status).toBe(200);
    // Written off the request path: wait for it.
    const first = await vi.waitFor(async () => {
      const at = (await row(issued.id)).last_used_at;
      if (at === null) throw new Error('last_used_at not written yet');
      return at;
    });
    forgetCachedKeys(); // the next call reads the key again, as after the cache's second
    expect((await client(t.server, t.clinic, issued.secret).get('/me')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect((await row(issued.id)).last_used_at).toBe(first);
  });
});

describe('rate-limit accounting', () => {
  let limited: TestServer;
  let c: Clinic;
  // The limiter's windows follow the app's clock: pinned early in a minute, every hit of this block
  // lands in one window however slow the machine.
  const pinned = Math.floor(Date.now() / 60_000) * 60_000 + 1000;
  beforeAll(async () => {
    limited = await startServer(
      { RATE_LIMIT_REST_PER_MINUTE: '8', RATE_LIMIT_UNAUTH_PER_MINUTE: '5', TRUST_PROXY: '1' },
      { now: () => pinned },
    );
    c = await newClinic(limited);
  });
  afterAll(() => limited.close());

  it('errors carry the headers, an idempotent replay costs a token, and Retry-After is the rest of the window', async () => {
    const capi = client(limited, c);
    const remaining = (r: { headers: Record<string, unknown> }) => Number(r.headers['x-ratelimit-remaining']);
    const notFound = await capi.get('/patients/999999999');
    expectError(notFound, 404, 'not_found');
    expect(notFound.headers['x-ratelimit-limit']).toBe('8');
    const invalid = await capi.get('/patients?shoe_size=1');
    expectError(invalid, 422, 'validation_failed');
    expect(remaining(invalid)).toBe(remaining(notFound) - 1);
    const headers = { 'idempotency-key': 'rules-rate' };
    const created = await capi.post('/patients', { body: { first_name: 'Rate', last_name: 'Limited' }, headers });
    const replayed = await capi.post('/patients', { body: { first_name: 'Rate', last_name: 'Limited' }, headers });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(remaining(replayed)).toBe(remaining(created) - 1);
    let last = replayed;
    while (last.status !== 429) last = await capi.get('/me');
    expectError(last, 429, 'rate_limited');
    const secondsLeft = Math.ceil((60_000 - (pinned % 60_000)) / 1000);
    expect(Math.abs(Number(last.headers['retry-after']) - secondsLeft)).toBeLessThanOrEqual(1);
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('/ping without a key counts against the caller IP; /openapi.json has its own bucket of 60', async () => {
    const headers = { 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250) + 1}` };
    const ping = await request(limited, 'GET', '/ping', { host: c.host, headers });
    expect(ping.status).toBe(200);
    expect(ping.headers['x-ratelimit-limit']).toBe('5');
    const docs = await request(limited, 'GET', '/openapi.json', { host: c.host, headers });
    expect(docs.status).toBe(200);
    expect(docs.headers['x-ratelimit-limit']).toBe('60');
    expect(docs.headers['x-ratelimit-remaining']).toBe('59');
    const keyed = await request(limited, 'GET', '/ping', { host: c.host, headers, key: c.key });
    expect(keyed.headers['x-ratelimit-limit']).toBe('8');
  });
});

describe('metadata bounds', () => {
  const keys = (n: number, prefix = 'k') =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i]));

  it('50 keys after merging: a write that would exceed it is 422; removing and adding in one write is fine', async () => {
    const id = (await api.post('/patients', { body: { first_name: 'Meta', last_name: 'Bound', metadata: keys(30) } }))
      .body.data.id;
    const over = await api.patch(`/patients/${id}`, { body: { metadata: keys(21, 'n') } });
    expectError(over, 422, 'validation_failed');
    expect(Object.keys(over.body.errors)).toEqual(['metadata']);
    expect(Object.keys((await api.get(`/patients/${id}`)).body.data.metadata)).toHaveLength(30);
    const full = await api.patch(`/patients/${id}`, { body: { metadata: keys(20, 'n') } });
    expect(full.status).toBe(200);
    expect(Object.keys(full.body.data.metadata)).toHaveLength(50);
    const swapped = await api.patch(`/patients/${id}`, { body: { metadata: { k0: null, swapped: true } } });
    expect(swapped.status).toBe(200);
    expect(swapped.body.data.metadata).toMatchObject({ swapped: true });
    expect(Object.keys(swapped.body.data.metadata)).toHaveLength(50);
  });

  it('exactly 50 keys and a 500-character value are accepted; 501 characters is not', async () => {
    const ok = await api.post('/patients', {
      body: { first_name: 'Meta', last_name: 'Edge', metadata: { ...keys(49), long: 'x'.repeat(500) } },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.metadata.long).toHaveLength(500);
    const refused = await api.post('/patients', {
      body: { first_name: 'Meta', last_name: 'Edge', metadata: { long: 'x'.repeat(501) } },
    });
    expectError(refused, 422, 'validation_failed');
    expect(Object.keys(refused.body.errors)).toEqual(['metadata.long']);
  });
});

describe('ne and not-in on a nullable attribute', () => {
  it('include the rows where it is null, as documented', async () => {
    const make = async (preferred_name: string | null) =>
      (await api.post('/patients', { body: { first_name: 'Null', last_name: 'Semantics', preferred_name } })).body.data
        .id;
    const [none, ann, bea] = [await make(null), await make('Ann'), await make('Bea')];
    const ids = async (q: string) =>
      (await api.get(`/patients?last_name=Semantics&sort=id&${q}`)).body.data.map((p: { id: number }) => p.id);
    expect(await ids('preferred_name=ne:Ann')).toEqual([none, bea]);
    expect(await ids('preferred_name=not-in:Ann,Bea')).toEqual([none]);
    expect(await ids('preferred_name=in:Ann,Bea')).toEqual([ann, bea]);
    expect(await ids('preferred_name=null')).toEqual([none]);
    expect(await ids('preferred_name=not-null')).toEqual([ann, bea]);
  });
});
