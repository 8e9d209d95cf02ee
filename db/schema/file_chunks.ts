import { bytes, id, int, table, text, timestamp, uniqueIndex, ref } from '../dialect';

/**
 * File bytes kept in the database (FILES_STORE=database): each file in chunks of at most 256 KiB,
 * numbered from 0 under the file's storage key (`<account>/<uuid>`, the `storage_key` of its record).
 */
export const fileChunks = table(
  'file_chunks',
  {
    id: id(),
    account_id: ref().notNull(),
    file_key: text().notNull(),
    seq: int().notNull(),
    data: bytes().notNull(),
    created_at: timestamp()
      .notNull()
      .$defaultFn(() => new Date().toISOString()),
  },
  (t) => [uniqueIndex('file_chunks_account_key_seq_uq').on(t.account_id, t.file_key, t.seq)],
);
