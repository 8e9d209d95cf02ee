/**
 * What a team member may do: one table of permissions, the roles seeded with every account, and the
 * one function that answers "may this member do this?" for the portal now and for AI connectors next.
 */
import type { RecordScope, RoleKey } from '../../db/schema';
import { ApiError } from '../errors';
import { namesOf } from '../values/keys';

/** Every permission, with the label the portal shows. */
export const PERMISSIONS = {
  'api_keys.manage': 'Manage API keys',
  'webhooks.manage': 'Manage webhooks',
  'connectors.manage': 'Connect AI apps',
  'connectors.manage_all': 'Manage everyone’s AI apps',
  'team.manage': 'Manage team',
  'settings.read': 'See practice setup',
  'settings.manage': 'Manage practice setup',
  'patients.read': 'Read patients',
  'patients.write': 'Write patients',
  'patients.delete': 'Delete patients',
  'appointments.read': 'Read appointments',
  'appointments.write': 'Write appointments',
  'appointments.delete': 'Delete appointments',
  'billing.read': 'Read billing',
  'billing.write': 'Write billing',
  'billing.delete': 'Delete billing',
} as const;
export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_KEYS = namesOf(PERMISSIONS);

const records = (areas: string[], verbs: string[]) => areas.flatMap((a) => verbs.map((v) => `${a}.${v}` as Permission));

/** The roles every account starts with. The owner's permissions are all of them, always. */
export const DEFAULT_ROLES: Record<RoleKey, { name: string; permissions: Permission[]; record_scope: RecordScope }> = {
  owner: { name: 'Owner', permissions: PERMISSION_KEYS, record_scope: 'all' },
  admin: {
    name: 'Admin',
    permissions: [
      'api_keys.manage',
      'webhooks.manage',
      'connectors.manage',
      'connectors.manage_all',
      'team.manage',
      'settings.read',
      'settings.manage',
      ...records(['patients', 'appointments', 'billing'], ['read', 'write', 'delete']),
    ],
    record_scope: 'all',
  },
  practitioner: {
    name: 'Practitioner',
    permissions: [...records(['patients', 'appointments'], ['read', 'write']), 'billing.read'],
    record_scope: 'own_patients',
  },
  receptionist: {
    name: 'Receptionist',
    permissions: records(['patients', 'appointments', 'billing'], ['read', 'write']),
    record_scope: 'all',
  },
};

/** A signed-in member as the permission check sees them. */
export interface MemberGrant {
  role: RoleKey;
  permissions: readonly string[];
  record_scope: RecordScope;
}

export function can(member: MemberGrant, permission: Permission): boolean {
  return member.role === 'owner' || member.permissions.includes(permission);
}

/** 403 permission_denied unless the member's role grants one of the permissions. */
export function authorize(member: MemberGrant, ...permissions: Permission[]): void {
  if (permissions.some((p) => can(member, p))) return;
  throw new ApiError(
    'permission_denied',
    `Your role does not allow this: it needs the permission ${permissions.map((p) => `"${PERMISSIONS[p]}"`).join(' or ')}`,
  );
}
