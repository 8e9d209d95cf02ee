/**
 * Every portal procedure against every role, generated from the portal router: a procedure declares the
 * permissions it needs (`permitted(...)`, in its meta); a role without one of them is 403
 * permission_denied before its input is read, a role with one gets past the check, and a signed-out
 * caller is 401. A new procedure is covered the day it is added.
 */
import type { AnyProcedure } from '@trpc/server';
import { beforeAll, describe, expect, test } from 'vitest';
import type { RouteMeta } from '../trpc';
import { DEFAULT_ROLES, can, type Permission } from '../auth/permissions';
import { ROLE_KEYS, type RoleKey } from '../../db/schema';
import { portalRouter } from '../routers/portal';
import { newClinic, useClinic } from './helpers';
import { portalClient, portalCode, portalData, signedIn, type PortalClient } from './support/portal';

const t = useClinic();

interface Proc {
  path: string;
  type: 'query' | 'mutation';
  permissions: readonly Permission[] | undefined;
  /** Whether an empty input `{}` is valid input for it (then a permitted call succeeds; else 422). */
  takesEmpty: boolean;
}

const PROCEDURES: Proc[] = Object.entries(portalRouter._def.procedures).map(([path, p]) => {
  const def = (p as unknown as AnyProcedure)._def;
  const inputs = (def as unknown as { inputs: { safeParse(v: unknown): { success: boolean } }[] }).inputs;
  const takesEmpty = inputs.every((input) => input.safeParse({}).success);
  return {
    path,
    type: def.type === 'query' ? 'query' : 'mutation',
    permissions: (def.meta as RouteMeta | undefined)?.permissions,
    takesEmpty,
  };
});
/** Procedures anyone may call: signing in and out, where sign-in stands, and a set-up or reset link's page. */
const PUBLIC = ['session.signIn', 'session.signOut', 'session.step', 'password.describe', 'password.set'];

const call = (portal: PortalClient, p: Proc, input?: unknown) =>
  p.type === 'query' ? portal.query(p.path, input) : portal.mutate(p.path, input);

test('the router has procedures, and each one is public, member-only or permission-checked', () => {
  expect(PROCEDURES.length).toBeGreaterThanOrEqual(12);
  expect(PROCEDURES.filter((p) => p.permissions).length).toBeGreaterThanOrEqual(9);
});

describe('signed out', () => {
  for (const p of PROCEDURES.filter((p) => !PUBLIC.includes(p.path))) {
    test(`${p.path}: 401 unauthenticated`, async () => {
      const res = await call(portalClient(t.server, t.clinic), p);
      expect(res.status).toBe(401);
      expect(portalCode(res)).toBe('unauthenticated');
    });
  }
});

describe('each role against each procedure', () => {
  const clients = {} as Record<RoleKey, PortalClient>;
  beforeAll(async () => {
    for (const role of ROLE_KEYS) clients[role] = (await signedIn(t.server, t.clinic, role)).portal;
  });
  for (const p of PROCEDURES.filter((p) => p.permissions)) {
    for (const role of ROLE_KEYS) {
      const allowed = p.permissions!.some((perm) => can({ role, ...DEFAULT_ROLES[role] }, perm));
      test(`${p.path} as ${role}: ${allowed ? 'past the check' : '403 permission_denied'}`, async () => {
        // An empty input: a permitted caller gets past the permission check — to its result when `{}`
        // is valid input, else to the input's 422 — and a refused one is stopped before the input is read.
        const res = await call(clients[role], p, {});
        if (allowed) {
          expect(`${res.status} ${portalCode(res) ?? ''}`.trim()).toBe(p.takesEmpty ? '200' : '422 validation_failed');
        } else {
          expect(res.status).toBe(403);
          expect(portalCode(res)).toBe('permission_denied');
          expect(res.body.error.message).toMatch(/needs the permission/);
        }
      });
    }
  }
});

test("a role's permissions are edited by an admin and apply at once to signed-in members", async () => {
  const { portal: receptionist } = await signedIn(t.server, t.clinic, 'receptionist');
  const { portal: admin } = await signedIn(t.server, t.clinic, 'admin');
  expect(portalCode(await receptionist.query('keys.list'))).toBe('permission_denied');
  const role = portalData(await admin.query('team.list')).roles.find((r: { key: string }) => r.key === 'receptionist');
  const granted = await admin.mutate('team.updateRole', {
    key: 'receptionist',
    permissions: [...role.permissions, 'api_keys.manage'],
    record_scope: role.record_scope,
  });
  expect(granted.status).toBe(200);
  expect((await receptionist.query('keys.list')).status).toBe(200);
  const revoked = await admin.mutate('team.updateRole', {
    key: 'receptionist',
    permissions: role.permissions,
    record_scope: 'own_calendar',
  });
  expect(portalData(revoked)).toMatchObject({ key: 'receptionist', record_scope: 'own_calendar' });
  expect(portalCode(await receptionist.query('keys.list'))).toBe('permission_denied');
  const owner = await admin.mutate('team.updateRole', { key: 'owner', permissions: [], record_scope: 'all' });
  expect(owner.status).toBe(422);
});

test('the owner: one per account, cannot be deactivated or demoted, hands ownership over', async () => {
  const clinic = await newClinic(t.server);
  const { member: owner, portal: ownerPortal } = await signedIn(t.server, clinic, 'owner');
  const { member: admin, portal: adminPortal } = await signedIn(t.server, clinic, 'admin');
  const deactivate = await adminPortal.mutate('team.setActive', { user_id: owner.id, active: false });
  expect(deactivate.status).toBe(409);
  expect(portalCode(deactivate)).toBe('conflict');
  expect((await adminPortal.mutate('team.setRole', { user_id: owner.id, role: 'admin' })).status).toBe(409);
  expect((await adminPortal.mutate('team.setRole', { user_id: admin.id, role: 'owner' })).status).toBe(422);
  const create = await adminPortal.mutate('team.create', {
    name: 'Second owner',
    email: 'second-owner@example.test',
    role: 'owner',
  });
  expect(create.status).toBe(422);
  // Only the owner transfers ownership.
  expect(portalCode(await adminPortal.mutate('team.transferOwnership', { user_id: admin.id }))).toBe(
    'permission_denied',
  );
  expect((await ownerPortal.mutate('team.transferOwnership', { user_id: admin.id })).status).toBe(200);
  const members = portalData(await adminPortal.query('team.list')).members;
  expect(members.find((m: { id: number }) => m.id === admin.id).role).toBe('owner');
  expect(members.find((m: { id: number }) => m.id === owner.id).role).toBe('admin');
  expect(members.filter((m: { role: string }) => m.role === 'owner')).toHaveLength(1);
});
