import { bigint, int, primaryKey, table, text, timestamp } from '../dialect';

/** Stored responses of POSTs sent with an Idempotency-Key, per account, kept 24 hours. */
export const idempotencyKeys = table(
  'idempotency_keys',
  {
    account_id: int().notNull(),
    key: text().notNull(),
    fingerprint: text().notNull(),
    state: text<'in_flight' | 'done'>().notNull(),
    status: int(),
    body: text(),
    created_at: timestamp().notNull(),
  },
  (t) => [primaryKey({ name: 'idempotency_keys_pk', columns: [t.account_id, t.key] })],
);

/** Fixed one-minute rate-limit windows shared by every server process on the database. */
export const rateLimitBuckets = table(
  'rate_limit_buckets',
  {
    bucket: text().notNull(),
    window_start: bigint().notNull(),
    count: int().notNull(),
  },
  (t) => [primaryKey({ name: 'rate_limit_buckets_pk', columns: [t.bucket, t.window_start] })],
);

/** Server-wide values shared by every process on the database (e.g. the cursor signing secret). */
export const settings = table('settings', {
  key: text().primaryKey(),
  value: text().notNull(),
});
