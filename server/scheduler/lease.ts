/**
 * The job leases (db/schema/job_leases.ts): of every process on the database, the one that takes a
 * job's lease runs it; the others skip it until the lease is released or has expired. Every change is
 * one conditional statement or one transaction, so two takers never both succeed:
 * - PostgreSQL: the due rows are selected FOR UPDATE SKIP LOCKED (a row another taker is changing is
 *   skipped, not waited for) and taken in the same transaction;
 * - SQLite: the transaction starts with BEGIN IMMEDIATE (db/client.ts): one writer at a time, across
 *   processes too.
 * Times are the caller's clock, as ISO 8601 strings (they compare as written on SQLite).
 */
import { and, eq, inArray, lte } from 'drizzle-orm';
import type { DbHandle } from '../../db/client';
import { isPg } from '../../db/dialect';
import { jobLeases } from '../../db/schema';

const iso = (ms: number) => new Date(ms).toISOString();

/** Adds the rows of jobs not seen before, due at once and held by nobody. */
export async function ensureLeases(db: DbHandle, names: readonly string[], now: number): Promise<void> {
  if (!names.length) return;
  await db.transaction((tx) =>
    tx
      .insert(jobLeases)
      .values(names.map((name) => ({ name, holder: null, expires_at: iso(now), due_at: iso(now) })))
      .onConflictDoNothing(),
  );
}

/** Takes the lease of each of `names` that is due and held by nobody (released, or expired): the names taken. */
export async function takeDue(
  db: DbHandle,
  holder: string,
  names: readonly string[],
  now: number,
  leaseMs: number,
): Promise<string[]> {
  if (!names.length) return [];
  const at = iso(now);
  return db.transaction(async (tx) => {
    const due = tx
      .select({ name: jobLeases.name })
      .from(jobLeases)
      .where(and(inArray(jobLeases.name, [...names]), lte(jobLeases.due_at, at), lte(jobLeases.expires_at, at)))
      .orderBy(jobLeases.due_at, jobLeases.name);
    const free = (await (isPg ? due.for('update', { skipLocked: true }) : due)).map((r) => r.name);
    if (!free.length) return [];
    const taken = await tx
      .update(jobLeases)
      .set({ holder, expires_at: iso(now + leaseMs) })
      .where(inArray(jobLeases.name, free))
      .returning({ name: jobLeases.name });
    const got = new Set(taken.map((r) => r.name));
    return free.filter((n) => got.has(n));
  });
}

/**
 * Extends a lease its holder still has. False when it has been taken by another (it expired meanwhile):
 * the job must stop, whatever it was doing is finished by the new holder.
 */
export async function renewLease(
  db: DbHandle,
  holder: string,
  name: string,
  now: number,
  leaseMs: number,
): Promise<boolean> {
  const renewed = await db.transaction((tx) =>
    tx
      .update(jobLeases)
      .set({ expires_at: iso(now + leaseMs) })
      .where(and(eq(jobLeases.name, name), eq(jobLeases.holder, holder)))
      .returning({ name: jobLeases.name }),
  );
  return renewed.length > 0;
}

/** Gives the lease back, the job due again at `dueAt`. Nothing if another holder has it by now. */
export async function releaseLease(
  db: DbHandle,
  holder: string,
  name: string,
  now: number,
  dueAt: number,
): Promise<boolean> {
  const released = await db.transaction((tx) =>
    tx
      .update(jobLeases)
      .set({ holder: null, expires_at: iso(now), due_at: iso(dueAt) })
      .where(and(eq(jobLeases.name, name), eq(jobLeases.holder, holder)))
      .returning({ name: jobLeases.name }),
  );
  return released.length > 0;
}
