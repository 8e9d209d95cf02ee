import { accountIdIndex, id, index, json, table, text, timestamp, uniqueIndex, ref } from '../dialect';

export type KeyAccess = 'read_write' | 'read_only' | 'restricted';
/** A restricted key's access per group of resources (server/auth/key-permissions.ts names the groups). */
export type KeyGrants = Record<string, 'none' | 'read' | 'write'>;

/**
 * API keys. Only SHA-256 digests are stored. `previous_hash` is the secret replaced by the last
 * rotation, accepted until `previous_expires_at`. `api` = 'legacy' marks keys of the older /api,
 * which never authenticate here; `format` = 'id_pipe' marks keys issued as `id|secret`. A `restricted`
 * key holds `permissions` per group; `allowed_ips`, when set, lists the networks it may call from.
 */
export const apiKeys = table(
  'api_keys',
  {
    id: id(),
    account_id: ref().notNull(),
    name: text().notNull(),
    access: text<KeyAccess>().notNull(),
    api: text<'v3' | 'legacy'>().notNull(),
    format: text<'bare' | 'id_pipe'>().notNull(),
    hash: text().notNull(),
    start: text().notNull(),
    previous_hash: text(),
    previous_expires_at: timestamp(),
    /** When the previous secret was last used during its grace (at most once a minute, like last_used_at). */
    previous_last_used_at: timestamp(),
    permissions: json<KeyGrants>(),
    allowed_ips: json<string[]>(),
    expires_at: timestamp(),
    revoked_at: timestamp(),
    last_used_at: timestamp(),
    rotated_at: timestamp(),
    /** Who created it: a team member's name, or `cli`. */
    created_by: text(),
    created_at: timestamp().notNull(),
    updated_at: timestamp().notNull(),
  },
  (t) => [
    uniqueIndex('api_keys_hash_uq').on(t.account_id, t.hash),
    index('api_keys_previous_hash_idx').on(t.account_id, t.previous_hash),
    ...accountIdIndex('api_keys_account_idx', t),
  ],
);
