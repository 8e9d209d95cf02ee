/**
 * Restricted keys beyond the route table (routes.security.test.ts proves every route × group): what
 * GET /me says, the feeds narrowed to a key's groups, embeds of other groups left null, allowed
 * networks under TRUST_PROXY, the portal's and the CLI's refusals, the previous secret's last use, the
 * activity and request logs, and OpenAPI's x-permission per operation.
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { apiKeys } from '../../db/schema';
import { createKey, listKeys, rotateKey } from '../domain/api_keys';
import { GROUP_NAMES, type KeyPermissions } from '../auth/key-groups';
import { RouteTable } from '../rest/routes';
import { appRouter } from '../routers';
import { clinicRows, expectError, newClinic, request, startServer, useClinic, type Res } from './helpers';
import { clinic as cli } from './support/cli';
import { portalCode, portalData, signedIn } from './support/portal';

const t = useClinic({ seed: true, env: { TRUST_PROXY: '1' } });
const actor = { actor_type: 'user' as const, actor_id: null, actor_name: 'test' };
const grants = (given: Partial<KeyPermissions>) =>
  Object.fromEntries(GROUP_NAMES.map((g) => [g, given[g] ?? 'none'])) as KeyPermissions;

async function restrictedKey(permissions: Partial<KeyPermissions>, allowed_ips?: string[]) {
  return createKey(t.server.app.db, t.clinic.account, actor, {
    name: `restricted ${Object.keys(permissions).join(' ')}`,
    access: 'restricted',
    permissions: grants(permissions),
    allowed_ips,
  });
}
const get = (key: string, p: string, headers: Record<string, string> = {}): Promise<Res> =>
  request(t.server, 'GET', p, { host: t.clinic.host, key, headers });

describe('what a restricted key holds', () => {
  test('GET /me lists its permissions and networks; a full key holds every group', async () => {
    const key = await restrictedKey({ scheduling: 'write', patients: 'read' }, ['203.0.113.0/24']);
    const me = await get(key.secret, '/me', { 'X-Forwarded-For': '203.0.113.5' });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({
      scopes: ['read', 'write'],
      restricted: true,
      permissions: grants({ scheduling: 'write', patients: 'read' }),
      allowed_ips: ['203.0.113.0/24'],
    });
    const full = (await get(t.clinic.readOnlyKey, '/me')).body.data;
    expect(full).toMatchObject({ restricted: false, allowed_ips: null, scopes: ['read'] });
    expect(Object.values(full.permissions)).toEqual(GROUP_NAMES.map(() => 'read'));
  });

  test('a restricted key whose permissions went missing holds none (it never falls open)', async () => {
    const key = await restrictedKey({ patients: 'read' });
    await t.server.app.db.transaction((tx) =>
      tx
        .update(apiKeys)
        .set({ permissions: null })
        .where(and(eq(apiKeys.account_id, t.clinic.account.id), eq(apiKeys.id, key.id))),
    );
    const { forgetCachedKeys } = await import('../auth/authenticate');
    forgetCachedKeys();
    expectError(await get(key.secret, '/patients'), 403, 'forbidden');
    const me = (await get(key.secret, '/me')).body.data;
    expect([me.restricted, me.scopes, Object.values(me.permissions)]).toEqual([
      true,
      ['read'],
      GROUP_NAMES.map(() => 'none'),
    ]);
  });

  test('a key that may only read is refused every write with forbidden, naming the group', async () => {
    const key = await restrictedKey({ patients: 'read' });
    const res = await request(t.server, 'POST', '/patients', {
      host: t.clinic.host,
      key: key.secret,
      body: { first_name: 'No', last_name: 'Write' },
    });
    expectError(res, 403, 'forbidden');
    expect(res.body.errors).toEqual({ permission: ['patients:write'] });
    expect((await get(key.secret, '/patients?page_size=1')).status).toBe(200);
  });
});

describe('feeds and embeds', () => {
  test("the events feed shows a scheduling key only scheduling's entries, and its links keep the narrowing", async () => {
    const key = await restrictedKey({ scheduling: 'read' });
    const page = await get(key.secret, '/events?page_size=100');
    expect(page.status).toBe(200);
    const full = await get(t.clinic.key, '/events?page_size=100');
    const entities = (p: Res) => new Set(p.body.data.map((e: { data: { entity: string } }) => e.data.entity));
    expect([...entities(full)].length).toBeGreaterThan(1); // the seeded clinic announced more than appointments
    expect([...entities(page)]).toEqual(['appointments']);
    expect(decodeURIComponent(page.body.links.first)).toContain('entity=in:appointments');
    // A cursor reader (the feed's way) resumes with the narrowing in its next link.
    const cursor = await get(key.secret, '/events?cursor=&page_size=2');
    expect(decodeURIComponent(cursor.body.links.next)).toContain('entity=in:appointments');
    const refused = await get(key.secret, '/events?entity=eq:invoices');
    expectError(refused, 403, 'forbidden');
    expect(refused.body.errors).toEqual({ permission: ['billing:read'] });
    const other = full.body.data.find((e: { data: { entity: string } }) => e.data.entity !== 'appointments');
    expectError(await get(key.secret, `/events/${other.id}`), 403, 'forbidden');
  });

  test('deleted entities are narrowed the same way', async () => {
    const writer = await restrictedKey({ patients: 'write', scheduling: 'read' });
    const created = await request(t.server, 'POST', '/patients', {
      host: t.clinic.host,
      key: writer.secret,
      body: { first_name: 'Gone', last_name: 'Soon' },
    });
    const removed = await request(t.server, 'DELETE', `/patients/${created.body.data.id}`, {
      host: t.clinic.host,
      key: writer.secret,
    });
    expect(removed.status).toBe(204);
    const scheduling = await restrictedKey({ scheduling: 'read' });
    const seen = await get(scheduling.secret, '/deleted_entities?page_size=100&sort=id:desc');
    expect(seen.status).toBe(200);
    expect(seen.body.data.every((d: { entity: string }) => d.entity === 'appointments')).toBe(true);
    const patientsSeen = await get(writer.secret, '/deleted_entities?entity=patients&sort=id:desc');
    expect(patientsSeen.body.data[0]).toMatchObject({ entity: 'patients', entity_id: created.body.data.id });
  });

  test("an appointment's patient is null for a key that may not read patients, present for one that may", async () => {
    const scheduling = await restrictedKey({ scheduling: 'read' });
    const both = await restrictedKey({ scheduling: 'read', patients: 'read' });
    const [hidden, shown] = [
      await get(scheduling.secret, '/appointments?page_size=5&sort=id'),
      await get(both.secret, '/appointments?page_size=5&sort=id'),
    ];
    expect(hidden.body.data.map((a: { patient: unknown }) => a.patient)).toEqual([null, null, null, null, null]);
    expect(shown.body.data.every((a: { patient: { name: string } | null }) => a.patient?.name)).toBe(true);
    const one = await get(scheduling.secret, `/appointments/${shown.body.data[0].id}`);
    expect([one.status, one.body.data.patient, one.body.data.patient_id]).toEqual([
      200,
      null,
      shown.body.data[0].patient_id,
    ]);
  });
});

describe('allowed networks', () => {
  test('behind a proxy (TRUST_PROXY=1) the client address decides; IPv6 and single addresses too', async () => {
    const key = await restrictedKey({ patients: 'read' }, ['203.0.113.0/24', '2001:db8::/32', '198.51.100.7']);
    for (const ok of ['203.0.113.200', '2001:db8:1::5', '198.51.100.7', '::ffff:203.0.113.9'])
      expect((await get(key.secret, '/me', { 'X-Forwarded-For': ok })).status, ok).toBe(200);
    for (const no of ['203.0.114.1', '198.51.100.8', '2001:db9::1']) {
      const res = await get(key.secret, '/patients', { 'X-Forwarded-For': no });
      expectError(res, 403, 'forbidden');
      expect(res.body.message).toContain(no);
    }
    // A client cannot add its own hop: the proxy appends the address it saw, which is the one read.
    expectError(await get(key.secret, '/me', { 'X-Forwarded-For': '203.0.113.9, 192.0.2.1' }), 403, 'forbidden');
  });

  test('without a proxy the socket address decides (127.0.0.1 here)', async () => {
    const direct = await startServer();
    try {
      const clinic = await newClinic(direct);
      const mk = (ips: string[]) =>
        createKey(direct.app.db, clinic.account, actor, { name: 'net', access: 'read_only', allowed_ips: ips });
      const [inside, outside] = [await mk(['127.0.0.0/8']), await mk(['10.0.0.0/8'])];
      const call = (key: string) =>
        request(direct, 'GET', '/me', { host: clinic.host, key, headers: { 'X-Forwarded-For': '10.1.2.3' } });
      expect((await call(inside.secret)).status).toBe(200);
      expectError(await call(outside.secret), 403, 'forbidden');
    } finally {
      await direct.close();
    }
  });
});

describe('creating restricted keys', () => {
  test('the portal refuses a restricted key without permissions, with none granted, or a bad network; nothing is made', async () => {
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const keysNow = () => clinicRows(t.server, t.clinic, apiKeys);
    const before = await keysNow();
    const base = { name: 'SMS reminders', access: 'restricted', expires: 'never' };
    for (const [input, field] of [
      [base, 'permissions'],
      [{ ...base, permissions: { patients: 'none' } }, 'permissions'],
      [{ ...base, permissions: { patients: 'read' }, allowed_ips: ['10.0.0.0/8', 'not-a-network'] }, 'allowed_ips.1'],
      [{ ...base, permissions: { patients: 'read' }, allowed_ips: ['10.0.0.0/33'] }, 'allowed_ips.0'],
      [{ ...base, permissions: { everything: 'write' } }, 'permissions.everything'],
    ] as const) {
      const res = await portal.mutate('keys.create', input);
      expect(portalCode(res), JSON.stringify(input)).toBe('validation_failed');
      expect(Object.keys(res.body.error.data.errors), JSON.stringify(input)).toContain(field);
    }
    expect(await keysNow()).toBe(before);
    const made = await portal.mutate('keys.create', {
      ...base,
      permissions: { scheduling: 'read', patients: 'read' },
      allowed_ips: ['10.1.2.3/8', '10.9.9.9/8'],
    });
    expect(made.status).toBe(200);
    const listed = portalData(await portal.query('keys.list')).data.find(
      (k: { id: number }) => k.id === portalData(made).id,
    );
    // Networks are written in their canonical form, once.
    expect(listed).toMatchObject({
      access: 'restricted',
      permissions: grants({ scheduling: 'read', patients: 'read' }),
      allowed_ips: ['10.0.0.0/8'],
    });
    const activity = portalData(await portal.query('activity.list', { kind: 'api_keys' })).data[0];
    expect(activity.summary).toContain('restricted: patients read, scheduling read, only from 10.0.0.0/8');
  });

  test('the request log names the key with what it may do', async () => {
    const key = await restrictedKey({ billing: 'read' });
    expect((await get(key.secret, '/invoices?page_size=1')).status).toBe(200);
    expectError(await get(key.secret, '/patients'), 403, 'forbidden');
    await t.server.app.requestLog.flush();
    const { portal } = await signedIn(t.server, t.clinic, 'admin');
    const rows = portalData(await portal.query('requests.list', { key_id: key.id })).data;
    expect(rows.map((r: { status: number }) => r.status).sort()).toEqual([200, 403]);
    expect(rows[0].key).toMatchObject({ id: key.id, access: 'Restricted: billing read' });
    expect(rows.find((r: { status: number }) => r.status === 403).error.code).toBe('forbidden');
  });
});

test('a call with a revoked key is logged under that key; an unknown key under none', async () => {
  const { revokeKey } = await import('../domain/api_keys');
  const key = await restrictedKey({ billing: 'read' });
  await revokeKey(t.server.app.db, t.clinic.account, actor, key.id);
  expectError(await get(key.secret, '/invoices'), 401, 'unauthenticated');
  expectError(await get(`${key.secret.slice(0, -3)}abc`, '/invoices?page_size=7'), 401, 'unauthenticated');
  await t.server.app.requestLog.flush();
  const { portal } = await signedIn(t.server, t.clinic, 'admin');
  const mine = portalData(await portal.query('requests.list', { key_id: key.id })).data;
  expect(mine.map((r: { status: number; path: string }) => `${r.status} ${r.path}`)).toEqual(['401 /v3/api/invoices']);
  const all = portalData(await portal.query('requests.list', { status_class: '4xx' })).data;
  const unknown = all.find((r: { query: string | null }) => r.query?.includes('page_size=7'));
  expect(unknown.key).toBeNull();
});

describe('rotation', () => {
  test('during the grace the list shows when the previous secret was last used', async () => {
    const key = await restrictedKey({ patients: 'read' });
    await rotateKey(t.server.app.db, t.clinic.account, actor, key.id);
    const row = async () => (await listKeys(t.server.app.db, t.clinic.account)).find((k) => k.id === key.id)!;
    expect((await row()).previous_last_used_at).toBeNull();
    expect((await get(key.secret, '/me')).status).toBe(200);
    await expect.poll(async () => (await row()).previous_last_used_at, { timeout: 5000 }).toMatch(/^\d{4}-\d\d-\d\dT/);
    const [stored] = await t.server.app.db.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.account_id, t.clinic.account.id), eq(apiKeys.id, key.id)));
    expect(stored.last_used_at).toBeNull(); // the new secret has not been used
  });
});

describe('OpenAPI', () => {
  test('every operation that needs a key names its permission (x-permission) and documents 403 forbidden', async () => {
    const doc = (await request(t.server, 'GET', '/openapi.json', { host: t.clinic.host })).body;
    for (const route of new RouteTable(appRouter).routes.filter((r) => r.protect)) {
      const op = doc.paths[route.path][route.method.toLowerCase()];
      const need = route.type === 'query' ? 'read' : 'write';
      const expected =
        route.permission === 'none' ? 'none' : route.permission === 'feed' ? 'any' : `${route.permission}:${need}`;
      expect(op['x-permission'], `${route.method} ${route.path}`).toBe(expected);
      expect(JSON.stringify(op.responses['403'])).toMatch(/forbidden|Forbidden/);
      if (expected.includes(':')) expect(op.description).toContain(`\`${expected}\``);
    }
  });
});

describe('the command line', () => {
  test('clinic key create --access restricted --permissions … --allow-ip …; bad values exit 2', async () => {
    const where = ['--clinic', t.clinic.account.subdomain, '--region', t.clinic.account.region, '--name', 'CLI SMS'];
    const made = await cli(
      'key',
      'create',
      ...where,
      '--access',
      'restricted',
      '--permissions',
      'scheduling:read,patients:read',
      '--allow-ip',
      '127.0.0.1,203.0.113.0/24',
    );
    expect(made.code, made.stderr).toBe(0);
    const secret = made.stdout.trim();
    const me = await get(secret, '/me', { 'X-Forwarded-For': '203.0.113.4' });
    expect(me.body.data).toMatchObject({
      restricted: true,
      permissions: grants({ scheduling: 'read', patients: 'read' }),
      allowed_ips: ['127.0.0.1', '203.0.113.0/24'],
    });
    for (const bad of [
      ['--access', 'restricted'],
      ['--access', 'restricted', '--permissions', 'scheduling:admin'],
      ['--access', 'restricted', '--permissions', 'everything:read'],
      ['--access', 'read_only', '--permissions', 'scheduling:read'],
      ['--access', 'read_only', '--allow-ip', '300.1.1.1'],
    ]) {
      const res = await cli('key', 'create', ...where, ...bad);
      expect(res.code, bad.join(' ')).toBe(2);
    }
  }, 180_000);
});
