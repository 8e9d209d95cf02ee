import { index, int, primaryKey, table, text, timestamp, ref } from '../dialect';

/** Stored responses of POSTs sent with an Idempotency-Key, per account, kept 24 hours. */
export const idempotencyKeys = table(
  'idempotency_keys',
  {
    account_id: ref().notNull(),
    key: text().notNull(),
    fingerprint: text().notNull(),
    state: text<'in_flight' | 'done'>().notNull(),
    status: int(),
    body: text(),
    created_at: timestamp().notNull(),
  },
  (t) => [
    primaryKey({ name: 'idempotency_keys_pk', columns: [t.account_id, t.key] }),
    // The retention sweep's batches, oldest first, across accounts.
    index('idempotency_keys_sweep_idx').on(t.created_at),
  ],
);
