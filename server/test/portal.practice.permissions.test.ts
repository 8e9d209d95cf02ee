/**
 * Practice setup against the permissions, generated from the portal router: every setup write
 * (`practice.*` mutation) needs settings.manage and nothing else, every setup read settings.read or
 * settings.manage. A role granted everything but settings.manage is refused each write (403, nothing
 * saved); granted settings.read alone it reads and still cannot write. A new setup procedure is covered
 * the day it is added.
 */
import type { AnyProcedure } from '@trpc/server';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { events } from '../../db/schema';
import { DEFAULT_ROLES, PERMISSION_KEYS } from '../auth/permissions';
import { portalRouter } from '../routers/portal';
import type { RouteMeta } from '../trpc';
import { useClinic } from './helpers';
import { portalCode, portalData, signedIn, type PortalClient } from './support/portal';

const t = useClinic();

const SETUP = Object.entries(portalRouter._def.procedures)
  .filter(([path]) => path.startsWith('practice.'))
  .map(([path, p]) => {
    const def = (p as unknown as AnyProcedure)._def;
    return { path, type: def.type, permissions: (def.meta as RouteMeta | undefined)?.permissions };
  });
const WRITES = SETUP.filter((p) => p.type === 'mutation');
const READS = SETUP.filter((p) => p.type === 'query');

test('every setup write needs settings.manage alone; every setup read settings.read or settings.manage', () => {
  expect(WRITES.length).toBeGreaterThanOrEqual(12);
  expect(
    WRITES.filter((p) => JSON.stringify(p.permissions) !== JSON.stringify(['settings.manage'])).map((p) => p.path),
  ).toEqual([]);
  expect(
    READS.filter((p) => JSON.stringify(p.permissions) !== JSON.stringify(['settings.read', 'settings.manage'])).map(
      (p) => p.path,
    ),
  ).toEqual([]);
});

test('owner and admin have the setup permissions by default; practitioner and receptionist do not; the role editor lists them', async () => {
  expect(DEFAULT_ROLES.admin.permissions).toEqual(expect.arrayContaining(['settings.read', 'settings.manage']));
  expect(DEFAULT_ROLES.receptionist.permissions).not.toContain('settings.read');
  expect(DEFAULT_ROLES.practitioner.permissions).not.toContain('settings.manage');
  const { portal } = await signedIn(t.server, t.clinic, 'admin');
  const listed = portalData(await portal.query('team.list')).permissions.map((p: { key: string }) => p.key);
  expect(listed).toEqual(expect.arrayContaining(['settings.read', 'settings.manage']));
});

describe('a role without settings.manage', () => {
  let receptionist: PortalClient;
  const outbox = async () =>
    (await t.server.app.db.db.select({ n: count() }).from(events).where(eq(events.account_id, t.clinic.account.id)))[0]
      .n;

  beforeAll(async () => {
    const { portal: admin } = await signedIn(t.server, t.clinic, 'admin');
    // Everything but settings.manage: the refusals below are that permission's, not another's.
    const granted = await admin.mutate('team.updateRole', {
      key: 'receptionist',
      permissions: PERMISSION_KEYS.filter((p) => p !== 'settings.manage'),
      record_scope: 'all',
    });
    expect(granted.status, granted.text).toBe(200);
    receptionist = (await signedIn(t.server, t.clinic, 'receptionist')).portal;
  });

  for (const p of WRITES) {
    test(`${p.path}: 403 permission_denied, nothing saved`, async () => {
      const before = await outbox();
      const res = await receptionist.mutate(p.path, {
        id: 1,
        name: 'Refused',
        first_name: 'No',
        last_name: 'Way',
        duration_minutes: 30,
      });
      expect(res.status).toBe(403);
      expect(portalCode(res)).toBe('permission_denied');
      expect(res.body.error.message).toMatch(/"Manage practice setup"/);
      expect(await outbox()).toBe(before);
    });
  }

  test('reads with settings.read', async () => {
    expect((await receptionist.query('practice.locations.list')).status).toBe(200);
  });

  test('granted settings.manage, the same member writes at once', async () => {
    const { portal: admin } = await signedIn(t.server, t.clinic, 'admin');
    await admin.mutate('team.updateRole', { key: 'receptionist', permissions: PERMISSION_KEYS, record_scope: 'all' });
    const res = await receptionist.mutate('practice.locations.create', { name: 'Now allowed' });
    expect(res.status, res.text).toBe(200);
  });
});
