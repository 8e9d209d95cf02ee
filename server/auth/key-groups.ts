/**
 * The groups of resources a restricted key holds none, read or write of, named once. Plain data, for
 * the portal's pages as well as the server; server/auth/key-permissions.ts reads what people send.
 */
import { namesOf } from '../values/keys';

export const KEY_GROUPS = {
  patients: 'Patients and their contact details: patients, numbers, addresses, tag placements, referral sources',
  clinical: 'Clinical records: clinical notes, care plans, the patient timeline (logs and their tags)',
  scheduling: 'Scheduling: appointments and availability',
  billing: 'Billing: invoices, line items, payments, allocations, refunds',
  files: 'Files: uploads and their downloads',
  practice:
    'Practice setup: locations, practitioners, rooms, hours, appointment types, modalities, billable items, payment methods, tags, form templates',
} as const;
export type KeyGroup = keyof typeof KEY_GROUPS;
export const GROUP_NAMES = namesOf(KEY_GROUPS);
/** The readable name of a group, as the portal and the messages say it. */
export const GROUP_LABELS: Record<KeyGroup, string> = {
  patients: 'Patients and contact details',
  clinical: 'Clinical records',
  scheduling: 'Scheduling',
  billing: 'Billing',
  files: 'Files',
  practice: 'Practice setup',
};

export const GROUP_ACCESS = ['none', 'read', 'write'] as const;
export type GroupAccess = (typeof GROUP_ACCESS)[number];
export type KeyPermissions = Record<KeyGroup, GroupAccess>;

/**
 * What a route needs: a group's read (GET) or write (anything else); `feed` for the events and deleted
 * entities feeds, which carry every group's records (a restricted key reads them narrowed to its
 * groups: server/rest/key-guard.ts); `none` for what any key may call (ping, me, schema, changelog).
 */
export type RoutePermission = KeyGroup | 'feed' | 'none';

/** What a call of a route needs of its group: read for a query (GET), write for a mutation. */
export const accessNeeded = (type: 'query' | 'mutation'): 'read' | 'write' => (type === 'query' ? 'read' : 'write');

/** A group's permission as a scope string: `patients:read`. */
export const scopeOf = (group: KeyGroup, access: 'read' | 'write') => `${group}:${access}`;

/** A whole-key access as permissions: every group at write, at read, or (`none`) at nothing. */
export const permissionsOfAccess = (access: 'read_write' | 'read_only' | 'none'): KeyPermissions =>
  perGroup(() => (access === 'read_write' ? 'write' : access === 'read_only' ? 'read' : 'none'));

/**
 * A restricted key's stored grants (or an activity entry's copy of them) as permissions: every group
 * named, a group the stored value leaves out (added after the key was made) or gives no known access
 * at `none`. Reads `unknown` because activity entries keep what was written years ago as plain JSON.
 */
export const permissionsOf = (grants: unknown): KeyPermissions => {
  const given = grants !== null && typeof grants === 'object' ? new Map(Object.entries(grants)) : new Map();
  return perGroup((g) => {
    const access: unknown = given.get(g);
    return GROUP_ACCESS.find((a) => a === access) ?? 'none';
  });
};

/** Permissions with each group's access from `of`: every group named, whatever `of` is given. */
export function perGroup(of: (group: KeyGroup) => GroupAccess): KeyPermissions {
  const out = {} as KeyPermissions; // filled for every group on the next line
  for (const g of GROUP_NAMES) out[g] = of(g);
  return out;
}

/** One line for a key's access: "Read & write", "Read only", or "Restricted: patients read, scheduling write". */
export function describeAccess(access: string, permissions: KeyPermissions | null): string {
  if (access !== 'restricted' || !permissions) return access === 'read_only' ? 'Read only' : 'Read & write';
  const granted = GROUP_NAMES.filter((g) => permissions[g] !== 'none').map((g) => `${g} ${permissions[g]}`);
  return `Restricted: ${granted.join(', ')}`;
}
