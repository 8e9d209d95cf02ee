/**
 * A transaction that awaits real I/O while open (a password hash, a metadata fetch, a webhook, a file)
 * must not leak into other requests: they never see its uncommitted rows, and what they write (an
 * idempotency record, rate-limit counts) survives its rollback. On SQLite this needs the separate,
 * read-only connection for everything outside transactions (db/client.ts); on PostgreSQL the pool gives
 * it. Both run here.
 */
import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { idempotencyKeys, patients, rateLimitBuckets } from '../../db/schema';
import { isPg } from '../../db/dialect';
import { client, useClinic, storedIdempotencyKey } from './helpers';

const t = useClinic();

/** Polls a condition (no fixed sleep: the machine may be slow). */
async function until(condition: () => Promise<boolean>, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const claimOf = async (key: string) => {
  const [row] = await t.server.app.db.db
    .select()
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.account_id, t.clinic.account.id),
        eq(idempotencyKeys.key, await storedIdempotencyKey(t.server, t.clinic, key)),
      ),
    );
  return row;
};

it('an open transaction awaiting real I/O: others do not see its rows, and their writes survive its rollback', async () => {
  const api = client(t.server, t.clinic);
  const now = new Date().toISOString();
  let opened!: () => void;
  const isOpen = new Promise<void>((r) => (opened = r));
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const held = t.server.app.db
    .transaction(async (tx) => {
      await tx.insert(patients).values({
        account_id: t.clinic.account.id,
        first_name: 'Ghost',
        last_name: 'Uncommitted',
        blocked: false,
        communication_preferences: {},
        metadata: {},
        created_at: now,
        updated_at: now,
      });
      opened();
      await gate; // real I/O would be awaited here
      throw new Error('rolled back on purpose');
    })
    .catch((err: Error) => err.message);
  await isOpen;

  // (b) Another request reads while it is open: the uncommitted row is not there.
  const during = await api.get('/patients?last_name=Uncommitted');
  expect(during.status).toBe(200);
  expect(during.body.meta.total).toBe(0);

  // (a) Another request writes while it is open (an idempotency claim and record, rate-limit counts);
  // the open transaction then rolls back.
  const arrived = new Promise((r) => t.server.app.server.once('request', r));
  const post = api.post('/patients', {
    body: { first_name: 'Real', last_name: 'Committed' },
    headers: { 'idempotency-key': 'isolation-1' },
  });
  await arrived;
  // PostgreSQL commits the claim while the other transaction is open: wait for it. SQLite runs one
  // write transaction at a time, so there the claim waits for the rollback (the request has arrived).
  if (isPg) await until(async () => (await claimOf('isolation-1')) !== undefined);
  release();
  expect(await held).toBe('rolled back on purpose');
  const created = await post;
  expect(created.status).toBe(201);

  await t.server.app.gateway.close(); // flushes the rate-limit counts
  const { db } = t.server.app.db;
  expect((await claimOf('isolation-1'))?.state).toBe('done');
  const replay = await api.post('/patients', {
    body: { first_name: 'Real', last_name: 'Committed' },
    headers: { 'idempotency-key': 'isolation-1' },
  });
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(replay.body.data.id).toBe(created.body.data.id);
  const [bucket] = await db
    .select()
    .from(rateLimitBuckets)
    .where(eq(rateLimitBuckets.bucket, `rest:${t.clinic.account.id}`));
  expect(bucket?.count).toBe(2); // the read and the write made while the transaction was open
  expect((await api.get('/patients?last_name=Uncommitted')).body.meta.total).toBe(0);
  expect((await api.get('/patients?last_name=Committed')).body.meta.total).toBe(1);
});
