import { bigint, int, primaryKey, table, text } from '../dialect';

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
