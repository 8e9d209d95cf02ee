/**
 * Resolves `Authorization: Bearer <key>` to a principal. Successful lookups are cached for one second,
 * so a revocation takes effect everywhere within a second while the hot path does no query per request;
 * in the process that revokes or rotates a key, forgetCachedKeys() makes it take effect at once.
 * last_used_at is written at most once a minute per key, off the request path.
 */
import { and, eq, or } from 'drizzle-orm';
import type { DbHandle } from '../../db/client';
import { apiKeys } from '../../db/schema';
import type { Principal } from '../context';
import { hashSecret, isWellFormedKey, KEY_PREFIX, parseIdPipe, sameDigest } from './keys';
import { permissionsOf } from './key-groups';

const CACHE_MS = 1000;
const LAST_USED_EVERY_MS = 60_000;

type KeyRow = typeof apiKeys.$inferSelect;

/**
 * Counts key changes committed by this process. The gateway owns its Authenticator while revocation
 * runs in domain code, so the two meet here: a change empties every Authenticator's caches (changes are
 * rare, human actions; the cost is one read per key in use afterwards).
 */
let keyChanges = 0;

/** Call after a revocation or rotation commits: this process's next lookup of any key reads the database. */
export function forgetCachedKeys(): void {
  keyChanges++;
}

export class Authenticator {
  private cache = new Map<string, { row: KeyRow; until: number }>();
  /**
   * Principals already checked, by the token's digest: until the key row is read again (CACHE_MS) or
   * the key (or its previous secret's grace) expires, whichever is first, a hit skips the checks.
   */
  private checked = new Map<
    string,
    { principal: Principal; accountId: number; keyId: number; graced: boolean; until: number }
  >();
  private lastUsedWritten = new Map<number, number>();
  private previousUsedWritten = new Map<number, number>();
  /** The keyChanges the caches were filled under. */
  private filledAt = keyChanges;

  constructor(
    private readonly db: DbHandle,
    private readonly onError: (err: unknown) => void = () => undefined,
    /** The app's clock: key expiry, rotation grace and the cache's second are read on it. */
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * The principal for a bearer token on this account, or null (401). `refused`, when given, is told the
   * key a real secret of which was refused (revoked, expired, its grace over), for the request log.
   */
  async authenticate(
    header: string | undefined,
    accountId: number,
    refused?: { keyId: number | null },
  ): Promise<Principal | null> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
    if (!token) return null;
    const now = this.clock();
    // Only cpk_ keys contain `_`; an id|secret key is parsed for its id.
    const cpk = token.startsWith(`${KEY_PREFIX}_`);
    const legacy = cpk ? null : parseIdPipe(token);
    if (!cpk && !legacy) return null;
    const digest = hashSecret(legacy ? legacy.secret : token);
    // Keys are looked up in the request's clinic (by (account_id, hash): docs/decisions.md, "Keys that distribute").
    const cacheKey = legacy ? `${accountId}:id:${legacy.id}:${digest}` : `${accountId}:${digest}`;
    if (this.filledAt !== keyChanges) {
      this.cache.clear();
      this.checked.clear();
      this.filledAt = keyChanges;
    }
    // What this request reads is cached only if no key changed meanwhile: a row read before a
    // revocation committed answers this request, never a later one.
    const changes = keyChanges;
    const known = this.checked.get(cacheKey);
    if (known && known.until > now && known.accountId === accountId) {
      this.touch(accountId, known.keyId, now, known.graced);
      return known.principal;
    }
    // Checked once, before the key's first lookup: a digest in the cache is of a token that passed.
    if (cpk && !isWellFormedKey(token)) return null;
    const row = await this.lookup(accountId, cacheKey, legacy, digest, now, changes);
    if (!row) return null;
    const nowIso = new Date(now).toISOString();
    // `format` is the current secret's form. A previous secret may be in either form (rotating an
    // id|secret key issues a cpk_ one): the digests cannot collide, as only cpk_ keys contain `_`.
    const current = row.format === (legacy ? 'id_pipe' : 'bare') && sameDigest(row.hash, digest);
    const graced =
      !current &&
      row.previous_hash !== null &&
      sameDigest(row.previous_hash, digest) &&
      (row.previous_expires_at ?? '') > nowIso;
    if (!current && !graced) {
      if (refused && row.previous_hash !== null && sameDigest(row.previous_hash, digest)) refused.keyId = row.id;
      return null;
    }
    if (
      row.api !== 'v3' ||
      row.revoked_at ||
      (row.expires_at && row.expires_at <= nowIso) ||
      row.account_id !== accountId
    ) {
      if (refused && row.api === 'v3' && row.account_id === accountId) refused.keyId = row.id;
      return null;
    }
    this.touch(accountId, row.id, now, graced);
    const principal = principalOf(row);
    if (changes !== keyChanges) return principal;
    const ends = [
      this.cache.get(cacheKey)?.until ?? now,
      row.expires_at ? Date.parse(row.expires_at) : Infinity,
      graced ? Date.parse(row.previous_expires_at!) : Infinity,
    ];
    if (this.checked.size > 10_000) this.checked.clear();
    this.checked.set(cacheKey, { principal, accountId, keyId: row.id, graced, until: Math.min(...ends) });
    return principal;
  }

  /** The key row behind a digest, read at most once per CACHE_MS. */
  private async lookup(
    accountId: number,
    cacheKey: string,
    legacy: { id: number } | null,
    digest: string,
    now: number,
    changes: number,
  ): Promise<KeyRow | null> {
    const hit = this.cache.get(cacheKey);
    if (hit && hit.until > now) return hit.row;
    const where = legacy ? eq(apiKeys.id, legacy.id) : or(eq(apiKeys.hash, digest), eq(apiKeys.previous_hash, digest));
    const [row] = await this.db.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.account_id, accountId), where))
      .limit(1);
    if (!row || changes !== keyChanges) return row ?? null;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(cacheKey, { row, until: now + CACHE_MS });
    return row;
  }

  /** Stamps the key's last use (or its previous secret's, during a rotation's grace). */
  private touch(accountId: number, id: number, now: number, previous = false) {
    const written = previous ? this.previousUsedWritten : this.lastUsedWritten;
    const last = written.get(id) ?? 0;
    if (now - last < LAST_USED_EVERY_MS) return;
    written.set(id, now);
    this.db
      .transaction((tx) =>
        tx
          .update(apiKeys)
          .set(
            previous
              ? { previous_last_used_at: new Date(now).toISOString() }
              : { last_used_at: new Date(now).toISOString() },
          )
          .where(and(eq(apiKeys.account_id, accountId), eq(apiKeys.id, id))),
      )
      .catch(this.onError);
  }
}

/** What a key row lets its caller do: the access scopes, and a restricted key's groups and networks. */
function principalOf(row: KeyRow): Principal {
  // A restricted key whose permissions went missing holds none: it never falls open to every group.
  const permissions = row.access === 'restricted' ? permissionsOf(row.permissions) : null;
  const writes = permissions ? Object.values(permissions).includes('write') : row.access === 'read_write';
  return {
    type: 'api_key',
    id: row.id,
    name: row.name,
    scopes: writes ? ['read', 'write'] : ['read'],
    ...(permissions ? { permissions } : {}),
    ...(row.allowed_ips?.length ? { allowedIps: row.allowed_ips } : {}),
  };
}
