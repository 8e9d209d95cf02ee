/** DatabaseStore (FILES_STORE=database) on the suite's database: chunking, reads, removal, key checks. */
import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileChunks } from '../../db/schema';
import { CHUNK_BYTES, DatabaseStore } from '../files/db-store';
import { startServer, type TestServer } from './helpers';

let server: TestServer;
let store: DatabaseStore;
// An account id no clinic of the suite has, so the rows counted here are this file's alone.
const accountId = 900_000_000 + Math.floor(Math.random() * 1_000_000);

beforeAll(async () => {
  server = await startServer();
  store = new DatabaseStore(server.app.db);
});
afterAll(() => server.close());

const chunksOf = (key: string) =>
  server.app.db.db
    .select({ seq: fileChunks.seq, data: fileChunks.data })
    .from(fileChunks)
    .where(eq(fileChunks.file_key, key))
    .orderBy(asc(fileChunks.seq));

describe('DatabaseStore', () => {
  it('a 600 KiB file round-trips byte for byte, stored as 3 chunks of at most 256 KiB', async () => {
    const bytes = randomBytes(600 * 1024);
    const key = await store.put(accountId, bytes);
    expect(key).toMatch(new RegExp(`^${accountId}/[0-9a-f-]{36}$`));
    const chunks = await chunksOf(key);
    expect(chunks.map((c) => [c.seq, c.data.length])).toEqual([
      [0, CHUNK_BYTES],
      [1, CHUNK_BYTES],
      [2, 600 * 1024 - 2 * CHUNK_BYTES],
    ]);
    expect((await store.get(key)).equals(bytes)).toBe(true);
    const streamed: Buffer[] = [];
    for await (const part of store.stream(key)) streamed.push(part);
    expect(Buffer.concat(streamed).equals(bytes)).toBe(true);
  });

  it('an empty file is stored and read back empty', async () => {
    const key = await store.put(accountId, Buffer.alloc(0));
    expect((await store.get(key)).length).toBe(0);
  });

  it('delete removes every chunk; the key then reads as missing', async () => {
    const key = await store.put(accountId, randomBytes(CHUNK_BYTES * 2 + 1));
    expect(await chunksOf(key)).toHaveLength(3);
    await store.delete(key);
    expect(await chunksOf(key)).toHaveLength(0);
    await expect(store.get(key)).rejects.toMatchObject({ code: 'ENOENT' });
    await store.delete(key); // removing what is gone is no error, as on disk
  });

  it('get and stream of a key never stored reject', async () => {
    const key = `${accountId}/00000000-0000-4000-8000-000000000000`;
    await expect(store.get(key)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(
      (async () => {
        for await (const part of store.stream(key)) void part;
      })(),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keys of another shape are refused', async () => {
    for (const key of ['../x', `${accountId}/../../etc/passwd`, '', `${accountId}/not-a-uuid`]) {
      await expect(store.get(key)).rejects.toThrow(/invalid storage key/);
      await expect(store.delete(key)).rejects.toThrow(/invalid storage key/);
    }
    await expect(store.put(-1, Buffer.from('x'))).rejects.toThrow(/invalid storage key/);
  });

  it('a failed upload leaves no chunk behind', async () => {
    const before = await server.app.db.db
      .select({ id: fileChunks.id })
      .from(fileChunks)
      .where(eq(fileChunks.account_id, accountId));
    // The second chunk's insert fails (a connection lost mid-upload): the first is rolled back with it.
    const failing = new DatabaseStore({
      ...server.app.db,
      transaction: (fn) =>
        server.app.db.transaction((tx) => {
          let inserts = 0;
          return fn(
            new Proxy(tx, {
              get: (target, prop, receiver) =>
                prop === 'insert' && ++inserts === 2
                  ? () => {
                      throw new Error('connection lost');
                    }
                  : Reflect.get(target, prop, receiver),
            }),
          );
        }),
    });
    await expect(failing.put(accountId, randomBytes(CHUNK_BYTES + 10))).rejects.toThrow();
    expect(
      await server.app.db.db.select({ id: fileChunks.id }).from(fileChunks).where(eq(fileChunks.account_id, accountId)),
    ).toEqual(before);
  });
});

describe('LocalDiskStore', () => {
  it('an upload and its folders are the owner’s alone (0600, 0700), whatever the umask', async () => {
    const { LocalDiskStore } = await import('../files/store');
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'clinic-uploads-'));
    const previous = process.umask(0o022);
    try {
      const key = await new LocalDiskStore(root).put(accountId, randomBytes(10));
      const file = path.join(root, key);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    } finally {
      process.umask(previous);
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
