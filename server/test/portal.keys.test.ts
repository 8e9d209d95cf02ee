/**
 * API keys managed in the portal, used over REST; the activity log and the request log that follow.
 * The request log is buffered and batch-inserted off the request path, and swept after 90 days.
 */
import { count, eq } from 'drizzle-orm';
import { describe, expect, onTestFinished, test } from 'vitest';
import { requestLog } from '../../db/schema';
import { RETENTION_DAYS } from '../rest/request-log';
import { createAccount } from '../domain/accounts';
import { newClinic, request, startServer, uniqueName, useClinic, type Res } from './helpers';
import { ownDatabaseUrl } from './support/own-database';
import { portalCode, portalData, signedIn } from './support/portal';

let clock = Date.now();
const t = useClinic({ now: () => clock });
const DAY = 86_400_000;

const rest = (host: string, key: string | null, method = 'GET', path = '/me', body?: unknown): Promise<Res> =>
  request(t.server, method, path, { host, key, body });
const actions = (res: Res) => portalData(res).data.map((r: { action: string }) => r.action);

describe('API keys in the portal', () => {
  test('create → use → rotate (both secrets work) → revoke (401); every step in the activity log, with who', async () => {
    const { member, portal } = await signedIn(t.server, t.clinic, 'admin');
    const created = await portal.mutate('keys.create', {
      name: 'Portal integration',
      access: 'read_write',
      expires: '90d',
    });
    expect(created.status).toBe(200);
    const { id, secret } = portalData(created);
    expect(secret).toMatch(/^[a-z]+_/);
    expect((await rest(t.clinic.host, secret)).status).toBe(200);
    expect(
      (await rest(t.clinic.host, secret, 'POST', '/patients', { first_name: 'Key', last_name: 'Test' })).status,
    ).toBe(201);

    const listed = portalData(await portal.query('keys.list')).data.find((k: { id: number }) => k.id === id);
    expect(listed).toMatchObject({
      name: 'Portal integration',
      access: 'read_write',
      status: 'active',
      created_by: member.name,
      start: secret.slice(0, listed.start.length),
    });
    expect(Date.parse(listed.expires_at) - Date.now()).toBeGreaterThan(89 * DAY);
    expect(JSON.stringify(listed)).not.toContain(secret);

    const rotated = portalData(await portal.mutate('keys.rotate', { id }));
    expect(rotated.secret).not.toBe(secret);
    expect((await rest(t.clinic.host, secret)).status).toBe(200);
    expect((await rest(t.clinic.host, rotated.secret)).status).toBe(200);
    const rotating = portalData(await portal.query('keys.list')).data.find((k: { id: number }) => k.id === id);
    expect(rotating.status).toBe('rotating');
    expect(Date.parse(rotating.previous_valid_until) - Date.now()).toBeGreaterThan(23 * 3_600_000);

    // Both secrets were just answered (cached); the revocation is immediate in this process, no waiting.
    expect((await portal.mutate('keys.revoke', { id })).status).toBe(200);
    expect((await rest(t.clinic.host, rotated.secret)).status).toBe(401);
    expect((await rest(t.clinic.host, secret)).status).toBe(401);
    expect(portalData(await portal.query('keys.list')).data.find((k: { id: number }) => k.id === id).status).toBe(
      'revoked',
    );
    expect(portalCode(await portal.mutate('keys.rotate', { id }))).toBe('conflict');

    const activity = await portal.query('activity.list', { kind: 'api_keys' });
    const mine = portalData(activity).data.filter((e: { entity_id: number }) => e.entity_id === id);
    expect(mine.map((e: { action: string }) => e.action)).toEqual(['revoked', 'rotated', 'created']);
    expect(
      mine.every(
        (e: { actor: { name: string; type: string } }) => e.actor.name === member.name && e.actor.type === 'user',
      ),
    ).toBe(true);
  });

  test('a read-only key reads (200) and is refused writes (403 key_read_only)', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const { secret } = portalData(
      await portal.mutate('keys.create', { name: 'Reader', access: 'read_only', expires: 'never' }),
    );
    expect((await rest(t.clinic.host, secret, 'GET', '/patients')).status).toBe(200);
    const write = await rest(t.clinic.host, secret, 'POST', '/patients', { first_name: 'No', last_name: 'Write' });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('key_read_only');
  });

  test('an account of the legacy generation is told why it cannot create keys', async () => {
    // newClinic issues test keys, which a legacy account cannot: the account is made directly.
    const account = await createAccount(t.server.app.db, {
      subdomain: uniqueName('legacy'),
      region: 'neptune',
      name: 'Old',
      timezone: 'Europe/London',
      currency: 'GBP',
      generation: 'legacy',
    });
    const clinic = { account, host: `${account.subdomain}.neptune.localhost`, key: '', readOnlyKey: '' };
    const { portal } = await signedIn(t.server, clinic, 'owner');
    expect(portalData(await portal.query('keys.list')).can_create).toBe(false);
    const res = await portal.mutate('keys.create', { name: 'Nope', access: 'read_write', expires: 'never' });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/not yet native to the current generation/);
  });
});

describe('request log', () => {
  test('REST calls are logged per key, in batches off the request path, and filterable', async () => {
    const clinic = await newClinic(t.server);
    const { portal } = await signedIn(t.server, clinic, 'admin');
    const { id, secret } = portalData(
      await portal.mutate('keys.create', { name: 'Logged', access: 'read_write', expires: 'never' }),
    );
    const logged = async () =>
      Number(
        (
          await t.server.app.db.db
            .select({ n: count() })
            .from(requestLog)
            .where(eq(requestLog.account_id, clinic.account.id))
        )[0].n,
      );
    await t.server.app.requestLog.flush();
    const before = await logged();
    await rest(clinic.host, secret, 'GET', '/patients?page_size=2');
    await rest(clinic.host, secret, 'GET', '/patients/999999');
    await rest(clinic.host, null, 'GET', '/me');
    // Answered, and not yet written: the rows wait for the batch.
    expect(await logged()).toBe(before);
    await t.server.app.requestLog.flush();
    expect(await logged()).toBe(before + 3);

    const all = portalData(await portal.query('requests.list', {})).data;
    expect(all.slice(0, 3).map((r: { status: number; path: string }) => `${r.status} ${r.path}`)).toEqual([
      '401 /v3/api/me',
      '404 /v3/api/patients/999999',
      '200 /v3/api/patients',
    ]);
    expect(all[1]).toMatchObject({ method: 'GET', key: { id, name: 'Logged' } });
    expect(all[1].request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(all[1].duration_ms).toBeGreaterThanOrEqual(0);
    const byKey = portalData(await portal.query('requests.list', { key_id: id })).data;
    expect(byKey).toHaveLength(2);
    const errors = portalData(await portal.query('requests.list', { status_class: '4xx' })).data;
    expect(errors.every((r: { status: number }) => r.status >= 400 && r.status < 500)).toBe(true);
    const byPath = portalData(await portal.query('requests.list', { path: '/patients/' })).data;
    expect(byPath.map((r: { path: string }) => r.path)).toEqual(['/v3/api/patients/999999']);
  });

  test(`rows older than ${RETENTION_DAYS} days are swept; newer ones stay`, async () => {
    // A database of its own: the sweep three months ahead reaches every clinic's rows, other files' too.
    const own = await startServer({ DATABASE_URL: await ownDatabaseUrl() }, { now: () => clock });
    onTestFinished(() => own.close());
    const clinic = await newClinic(own);
    const send = (path: string) => request(own, 'GET', path, { host: clinic.host, key: clinic.key });
    const old = clock;
    onTestFinished(() => {
      clock = old;
    });
    await send('/me');
    await own.app.requestLog.flush();
    clock = old + (RETENTION_DAYS - 1) * DAY;
    await send('/ping');
    await own.app.requestLog.flush();
    await own.app.requestLog.sweep();
    const paths = async () =>
      (await own.app.db.db.select().from(requestLog).where(eq(requestLog.account_id, clinic.account.id))).map(
        (r) => r.path,
      );
    expect((await paths()).sort()).toEqual(['/v3/api/me', '/v3/api/ping']);
    clock = old + (RETENTION_DAYS + 1) * DAY;
    await own.app.requestLog.sweep();
    expect(await paths()).toEqual(['/v3/api/ping']);
  });
});

test('the activity log pages by id and filters by kind; sign-ins and team changes are in it', async () => {
  const clinic = await newClinic(t.server);
  const { portal } = await signedIn(t.server, clinic, 'admin');
  for (let i = 0; i < 30; i++)
    await portal.mutate('keys.create', { name: `Key ${i}`, access: 'read_only', expires: 'never' });
  const first = portalData(await portal.query('activity.list', {}));
  expect(first.data).toHaveLength(25);
  expect(first.next_before).toBe(first.data[24].id);
  const second = portalData(await portal.query('activity.list', { before: first.next_before }));
  expect(second.data.length).toBeGreaterThan(5);
  expect(second.data[0].id).toBeLessThan(first.data[24].id);
  expect(actions(await portal.query('activity.list', { kind: 'sign_ins' }))).toEqual(['signed_in']);
  expect(actions(await portal.query('activity.list', { kind: 'team' }))).toEqual(['created']);
});
