/**
 * Idempotency-Key on POST, per account, stored in the database (shared by processes, survives
 * restarts). The first request claims the key; a retry with the same method, path and body within 24
 * hours replays the stored status and body; another request under the same key is refused; a retry
 * while the first is still running gets 409. Validation failures and server errors are not stored,
 * so the client can correct and retry with the same key.
 */
import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { DbHandle } from '../../db/client';
import { idempotencyKeys } from '../../db/schema';
import { ApiError } from '../errors';

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A claim older than this is taken to belong to a process that died mid-request. */
const STALE_CLAIM_MS = 60_000;

export interface StoredResponse {
  status: number;
  body: string;
}

export function checkKey(key: string): void {
  if (key.length === 0 || key.length > 255) {
    throw new ApiError('idempotency_key_invalid', 'Idempotency-Key must be 1 to 255 characters', { 'Idempotency-Key': ['must be 1 to 255 characters'] });
  }
}

export const fingerprint = (method: string, path: string, body: string) => createHash('sha256').update(`${method}\n${path}\n${body}`).digest('hex');

/** Claims the key, or returns the stored response to replay. */
export async function claim(db: DbHandle, accountId: number, key: string, print: string): Promise<StoredResponse | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const now = Date.now();
    // Each write is its own short transaction: never part of the request's own (its rollback must not
    // take the claim with it), and on SQLite the only way to write (db/client.ts).
    const inserted = await db.transaction((tx) =>
      tx
        .insert(idempotencyKeys)
        .values({ account_id: accountId, key, fingerprint: print, state: 'in_flight', created_at: new Date(now).toISOString() })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key }),
    );
    if (inserted.length) return null;
    const [row] = await db.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.account_id, accountId), eq(idempotencyKeys.key, key)));
    if (!row) continue;
    const age = now - Date.parse(row.created_at);
    const abandoned = row.state === 'in_flight' && age > STALE_CLAIM_MS;
    if (age > IDEMPOTENCY_WINDOW_MS || abandoned) {
      await db.transaction((tx) => tx.delete(idempotencyKeys).where(and(eq(idempotencyKeys.account_id, accountId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.created_at, row.created_at))));
      continue;
    }
    if (row.fingerprint !== print) {
      throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used for a different request', {
        'Idempotency-Key': ['was used with another method, path or body'],
      });
    }
    if (row.state === 'in_flight') throw new ApiError('idempotency_key_in_flight', 'A request with this Idempotency-Key is still being processed; retry shortly');
    return { status: row.status!, body: row.body! };
  }
  throw new ApiError('idempotency_key_in_flight', 'A request with this Idempotency-Key is still being processed; retry shortly');
}

export async function complete(db: DbHandle, accountId: number, key: string, response: StoredResponse, store: boolean): Promise<void> {
  const where = and(eq(idempotencyKeys.account_id, accountId), eq(idempotencyKeys.key, key));
  await db.transaction((tx) =>
    store ? tx.update(idempotencyKeys).set({ state: 'done', status: response.status, body: response.body }).where(where) : tx.delete(idempotencyKeys).where(where),
  );
}

export async function purgeExpired(db: DbHandle): Promise<void> {
  await db.transaction((tx) => tx.delete(idempotencyKeys).where(lt(idempotencyKeys.created_at, new Date(Date.now() - IDEMPOTENCY_WINDOW_MS).toISOString())));
}
