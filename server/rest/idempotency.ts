/**
 * Idempotency-Key on POST, per account, stored in the database (shared by processes, survives
 * restarts). The first request claims the key; a retry with the same method, path and body within 24
 * hours replays the stored status and body; another request under the same key is refused; a retry
 * while the first is still running gets 409. Validation failures and server errors are not stored,
 * so the client can correct and retry with the same key.
 *
 * Exactly once, even across a crash: a write's answer is stored by `complete` inside the write's own
 * transaction, so a committed write always has its answer to replay; a claim whose write never
 * committed is taken over once stale, and the write then runs (for the first time).
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db, DbHandle } from '../../db/client';
import { idempotencyKeys } from '../../db/schema';
import { ApiError } from '../errors';

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A claim older than this is taken to belong to a process that died mid-request. */
const STALE_CLAIM_MS = 60_000;

export interface StoredResponse {
  status: number;
  body: string;
}

/** A key this request holds: its row, told from a later claim of the same key by its created_at. */
export interface Claim {
  accountId: number;
  key: string;
  createdAt: string;
}

export function checkKey(key: string): void {
  if (key.length === 0 || key.length > 255) {
    throw new ApiError('idempotency_key_invalid', 'Idempotency-Key must be 1 to 255 characters', { 'Idempotency-Key': ['must be 1 to 255 characters'] });
  }
}

export const fingerprint = (method: string, path: string, body: string) => createHash('sha256').update(`${method}\n${path}\n${body}`).digest('hex');

/** Claims the key, or returns the stored response to replay. */
export async function claim(db: DbHandle, accountId: number, key: string, print: string): Promise<{ claim: Claim } | { replay: StoredResponse }> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const now = Date.now();
    // Each write is its own short transaction: never part of the request's own (its rollback must not
    // take the claim with it), and on SQLite the only way to write (db/client.ts).
    const inserted = await db.transaction((tx) =>
      tx
        .insert(idempotencyKeys)
        .values({ account_id: accountId, key, fingerprint: print, state: 'in_flight', created_at: new Date(now).toISOString() })
        .onConflictDoNothing()
        .returning({ createdAt: idempotencyKeys.created_at }),
    );
    if (inserted.length) return { claim: { accountId, key, createdAt: inserted[0].createdAt } };
    const [row] = await db.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.account_id, accountId), eq(idempotencyKeys.key, key)));
    if (!row) continue;
    const age = now - Date.parse(row.created_at);
    const abandoned = row.state === 'in_flight' && age > STALE_CLAIM_MS;
    if (age > IDEMPOTENCY_WINDOW_MS || abandoned) {
      // Only the row as read: a stale claim whose write commits meanwhile is 'done' and stays (on
      // PostgreSQL this delete waits for that commit, then finds the state changed).
      await db.transaction((tx) =>
        tx.delete(idempotencyKeys).where(and(eq(idempotencyKeys.account_id, accountId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.created_at, row.created_at), eq(idempotencyKeys.state, row.state))),
      );
      continue;
    }
    if (row.fingerprint !== print) {
      throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used for a different request', {
        'Idempotency-Key': ['was used with another method, path or body'],
      });
    }
    if (row.state === 'in_flight') throw new ApiError('idempotency_key_in_flight', 'A request with this Idempotency-Key is still being processed; retry shortly');
    return { replay: { status: row.status!, body: row.body! } };
  }
  throw new ApiError('idempotency_key_in_flight', 'A request with this Idempotency-Key is still being processed; retry shortly');
}

const held = (c: Claim) =>
  and(eq(idempotencyKeys.account_id, c.accountId), eq(idempotencyKeys.key, c.key), eq(idempotencyKeys.created_at, c.createdAt), eq(idempotencyKeys.state, 'in_flight'));

/**
 * Stores the answer of a write, in the write's own transaction (`tx`): both commit or neither. A claim
 * no longer held (taken over as stale while this write ran long) refuses, and so rolls back, the write:
 * the request that took it over runs it instead.
 */
export async function complete(tx: Db, c: Claim, response: StoredResponse): Promise<void> {
  const updated = await tx.update(idempotencyKeys).set({ state: 'done', status: response.status, body: response.body }).where(held(c)).returning({ key: idempotencyKeys.key });
  if (updated.length === 0) throw new ApiError('idempotency_key_in_flight', 'Another request with this Idempotency-Key took over while this one ran; retry to get its answer');
}

/**
 * After a refused write (nothing of it committed): stores the refusal for replay, or, for refusals a
 * corrected retry may fix, releases the key. Only a claim still held.
 */
export async function settle(db: DbHandle, c: Claim, response: StoredResponse, store: boolean): Promise<void> {
  await db.transaction((tx) => (store ? tx.update(idempotencyKeys).set({ state: 'done', status: response.status, body: response.body }).where(held(c)) : tx.delete(idempotencyKeys).where(held(c))));
}
