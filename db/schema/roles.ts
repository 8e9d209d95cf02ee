import { id, json, table, text, timestamp, uniqueIndex, ref } from '../dialect';

export const ROLE_KEYS = ['owner', 'admin', 'practitioner', 'receptionist'] as const;
export type RoleKey = (typeof ROLE_KEYS)[number];
/** Which records a role's read/write/delete permissions reach (server/auth/permissions.ts). */
export const RECORD_SCOPES = ['all', 'own_patients', 'own_calendar'] as const;
export type RecordScope = (typeof RECORD_SCOPES)[number];

/** The roles of an account, seeded per account; admins edit their permissions (not the owner's). */
export const roles = table(
  'roles',
  {
    id: id(),
    account_id: ref().notNull(),
    key: text<RoleKey>().notNull(),
    name: text().notNull(),
    permissions: json<string[]>().notNull(),
    record_scope: text<RecordScope>().notNull(),
    created_at: timestamp().notNull(),
    updated_at: timestamp().notNull(),
  },
  (t) => [uniqueIndex('roles_account_key_uq').on(t.account_id, t.key)],
);
