import { bigint, id, index, int, primaryKey, ref, table, text } from '../dialect';

/**
 * How many live rows a clinic's list holds per range of 4,096 ids (bucket = id >> 12), so an offset page
 * deep in the default order starts where its rows are instead of reading every row before them
 * (server/list/offsets.ts; decision 254). Kept by triggers on the counted tables (migration 0044):
 * each insert, delete and soft removal or restore adds a row to `offset_count_changes`, never updating
 * a shared row (concurrent writes of a clinic do not queue on one), and the job `offsets.compact` folds
 * those into `offset_counts`. A reader adds both.
 */
export const offsetCounts = table(
  'offset_counts',
  {
    account_id: ref().notNull(),
    entity: text().notNull(),
    bucket: bigint().notNull(),
    live: int().notNull(),
  },
  (t) => [primaryKey({ name: 'offset_counts_pk', columns: [t.account_id, t.entity, t.bucket] })],
);

export const offsetCountChanges = table(
  'offset_count_changes',
  {
    // A key of its own (with account_id on PostgreSQL, as every tenant table's): the rows are a log.
    id: id(),
    account_id: ref().notNull(),
    entity: text().notNull(),
    bucket: bigint().notNull(),
    delta: int().notNull(),
  },
  (t) => [index('offset_count_changes_bucket_idx').on(t.account_id, t.entity, t.bucket)],
);

/** The triggers that keep a table's counts, as migration 0044 names them (PostgreSQL adds `_emptied`, on TRUNCATE). */
export const offsetCountTriggers = (table: string) =>
  ['added', 'removed', 'moved'].map((change) => `${table}_offsets_${change}`);
