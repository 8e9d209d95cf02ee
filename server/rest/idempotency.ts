/**
 * Idempotency-Key on POST, per account, stored in the database (shared by processes, survives
 * restarts). The first request claims the key; a retry with the same method, path and body within 24
 * hours replays the stored status and body; another request under the same key is refused; a retry
 * while the first is still running gets 409. Validation failures and server errors are not stored,
 * so the client can correct and retry with the same key.
 *
 * Exactly once, even across a crash: the key is claimed (`claimIn`) and the write's answer stored
 * (`complete`) inside the write's own transaction, one commit for all three, so a committed write always
 * has its answer to replay and a write that never committed left no claim behind. A claim left
 * `in_flight` by an older release is taken over once stale.
 */
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { allIn, type Db, type DbHandle } from '../../db/client';
import { isPg } from '../../db/dialect';
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

/**
 * How a sent key is stored: scoped to the API key that sent it (each key is one integration, so another
 * key's same value is another request).
 */
export const scopedKey = (principal: { type: string; id: number }, sent: string) =>
  `${principal.type === 'api_key' ? 'k' : 'u'}${principal.id}:${sent}`;

export function checkKey(key: string): void {
  if (key.length === 0 || key.length > 255) {
    throw new ApiError('idempotency_key_invalid', 'Idempotency-Key must be 1 to 255 characters', {
      'Idempotency-Key': ['must be 1 to 255 characters'],
    });
  }
}

export const fingerprint = (method: string, path: string, body: string) =>
  createHash('sha256').update(`${method}\n${path}\n${body}`).digest('hex');

/**
 * What the key holds before a write: the stored answer to replay, or null (the write runs, and claims the
 * key inside its own transaction: `claimIn`). A record past the window, or a claim left `in_flight` by a
 * process that died, is removed first. Refuses a key used for another request, and one still in flight.
 */
export async function stored(
  db: DbHandle,
  accountId: number,
  key: string,
  print: string,
): Promise<StoredResponse | null> {
  const [row] = await db.db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.account_id, accountId), eq(idempotencyKeys.key, key)));
  if (!row) return null;
  const age = Date.now() - Date.parse(row.created_at);
  const abandoned = row.state === 'in_flight' && age > STALE_CLAIM_MS;
  if (age > IDEMPOTENCY_WINDOW_MS || abandoned) {
    // Only the row as read: one that changed meanwhile (became `done`) stays.
    await db.transaction((tx) =>
      tx
        .delete(idempotencyKeys)
        .where(
          and(
            eq(idempotencyKeys.account_id, accountId),
            eq(idempotencyKeys.key, key),
            eq(idempotencyKeys.created_at, row.created_at),
            eq(idempotencyKeys.state, row.state),
          ),
        ),
    );
    return null;
  }
  if (row.fingerprint !== print) {
    throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used for a different request', {
      'Idempotency-Key': ['was used with another method, path or body'],
    });
  }
  if (row.state === 'in_flight') throw inFlight();
  return { status: row.status!, body: row.body! };
}

export const inFlight = () =>
  new ApiError(
    'idempotency_key_in_flight',
    'A request with this Idempotency-Key is still being processed; retry shortly',
  );

/** Thrown by `claimIn` when another request committed the key since `stored` looked: replay its answer. */
export class KeyTaken extends Error {}

/**
 * Claims the key inside the write's own transaction (`tx`), so a write and its key commit together, once:
 * one commit per idempotent write. On PostgreSQL a transaction-scoped advisory lock on the key comes
 * first: a concurrent request with the same key is told at once that it is in flight (409) rather than
 * waiting on the insert for the first to finish; the lock ends with the transaction (PgBouncer-safe).
 * SQLite runs one write transaction at a time: a concurrent request finds the key committed.
 */
export async function claimIn(tx: Db, accountId: number, key: string, print: string): Promise<Claim> {
  if (isPg) {
    const [lock] = await allIn<{ ok: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(hashtextextended(${`idempotency:${accountId}:${key}`}, 0)) as ok`,
    );
    if (!lock.ok) throw inFlight();
  }
  const inserted = await tx
    .insert(idempotencyKeys)
    .values({
      account_id: accountId,
      key,
      fingerprint: print,
      state: 'in_flight',
      created_at: new Date().toISOString(),
    })
    .onConflictDoNothing()
    .returning({ createdAt: idempotencyKeys.created_at });
  if (!inserted.length) throw new KeyTaken();
  return { accountId, key, createdAt: inserted[0].createdAt };
}

const held = (c: Claim) =>
  and(
    eq(idempotencyKeys.account_id, c.accountId),
    eq(idempotencyKeys.key, c.key),
    eq(idempotencyKeys.created_at, c.createdAt),
    eq(idempotencyKeys.state, 'in_flight'),
  );

/**
 * Stores the answer of a write, in the write's own transaction (`tx`): both commit or neither. A claim
 * no longer held (taken over as stale while this write ran long) refuses, and so rolls back, the write:
 * the request that took it over runs it instead.
 */
export async function complete(tx: Db, c: Claim, response: StoredResponse): Promise<void> {
  const updated = await tx
    .update(idempotencyKeys)
    .set({ state: 'done', status: response.status, body: response.body })
    .where(held(c))
    .returning({ key: idempotencyKeys.key });
  if (updated.length === 0)
    throw new ApiError(
      'idempotency_key_in_flight',
      'Another request with this Idempotency-Key took over while this one ran; retry to get its answer',
    );
}

/**
 * After a refused write (its transaction, the claim with it, rolled back): stores the refusal for replay.
 * Refusals a corrected retry may fix (validation, rate limits, server errors) are not stored, nor a
 * refusal of the key itself (in flight): the key is free again with the rollback.
 */
export async function storeRefusal(
  db: DbHandle,
  accountId: number,
  key: string,
  print: string,
  error: ApiError,
): Promise<void> {
  if (
    error.status >= 500 ||
    error.status === 429 ||
    error.code === 'validation_failed' ||
    error.code === 'idempotency_key_in_flight'
  )
    return;
  const response = { status: error.status, body: JSON.stringify(error.toBody()) };
  await db.transaction((tx) =>
    tx
      .insert(idempotencyKeys)
      .values({
        account_id: accountId,
        key,
        fingerprint: print,
        state: 'done',
        status: response.status,
        body: response.body,
        created_at: new Date().toISOString(),
      })
      .onConflictDoNothing(),
  );
}
