/**
 * File bytes kept in the database (FILES_STORE=database), so that several instances over one
 * PostgreSQL serve each other's uploads. A file is stored as rows of file_chunks, at most 256 KiB
 * each, numbered from 0 under its key; keys have the disk store's shape (`<account>/<uuid>`).
 * See docs/decisions.md ("File bytes in the database").
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gte } from 'drizzle-orm';
import type { DbHandle } from '../../db/client';
import { fileChunks } from '../../db/schema';
import type { Env } from '../env';
import { accountOfKey, checkStorageKey, LocalDiskStore, type FileStore } from './store';

export const CHUNK_BYTES = 256 * 1024;
/** Chunks read per query by stream(): 1 MiB at a time. */
const STREAM_BATCH = 4;

/** What reading a missing file throws (fs's ENOENT), so callers see the same failure from either store. */
function missing(key: string): Error {
  return Object.assign(new Error(`no file stored under ${key}`), { code: 'ENOENT' });
}

function corrupt(key: string, seq: number): Error {
  return new Error(`file ${key} is missing chunk ${seq}`);
}

export class DatabaseStore implements FileStore {
  constructor(private readonly db: DbHandle) {}

  async put(accountId: number, bytes: Buffer): Promise<string> {
    const key = checkStorageKey(`${accountId}/${randomUUID()}`);
    // One transaction: a failed upload leaves no chunk behind. An empty file is one empty chunk, so
    // that it exists for get().
    await this.db.transaction(async (tx) => {
      for (let seq = 0, at = 0; seq === 0 || at < bytes.length; seq++, at += CHUNK_BYTES) {
        await tx
          .insert(fileChunks)
          .values({ account_id: accountId, file_key: key, seq, data: bytes.subarray(at, at + CHUNK_BYTES) });
      }
    });
    return key;
  }

  async get(key: string): Promise<Buffer> {
    const rows = await this.db.db
      .select({ seq: fileChunks.seq, data: fileChunks.data })
      .from(fileChunks)
      .where(and(eq(fileChunks.account_id, accountOfKey(key)), eq(fileChunks.file_key, key)))
      .orderBy(asc(fileChunks.seq));
    if (rows.length === 0) throw missing(key);
    rows.forEach((r, i) => {
      if (r.seq !== i) throw corrupt(key, i);
    });
    return Buffer.concat(rows.map((r) => r.data));
  }

  /**
   * The bytes a few chunks at a time (not yet used by the download path). Keys are never rewritten,
   * but a delete between two batches ends the stream early.
   */
  async *stream(key: string): AsyncIterable<Buffer> {
    const account = accountOfKey(key);
    for (let next = 0; ;) {
      const rows = await this.db.db
        .select({ seq: fileChunks.seq, data: fileChunks.data })
        .from(fileChunks)
        .where(and(eq(fileChunks.account_id, account), eq(fileChunks.file_key, key), gte(fileChunks.seq, next)))
        .orderBy(asc(fileChunks.seq))
        .limit(STREAM_BATCH);
      if (rows.length === 0 && next === 0) throw missing(key);
      for (const r of rows) {
        if (r.seq !== next) throw corrupt(key, next);
        next++;
        yield r.data;
      }
      if (rows.length < STREAM_BATCH) return;
    }
  }

  async delete(key: string): Promise<void> {
    const account = accountOfKey(key);
    await this.db.transaction(async (tx) => {
      await tx.delete(fileChunks).where(and(eq(fileChunks.account_id, account), eq(fileChunks.file_key, key)));
    });
  }
}

/** The store FILES_STORE names: the server and the command line (demo, seed) choose it here. */
export const fileStoreFor = (env: Pick<Env, 'FILES_STORE' | 'FILES_DIR'>, db: DbHandle): FileStore =>
  env.FILES_STORE === 'database' ? new DatabaseStore(db) : new LocalDiskStore(env.FILES_DIR);
