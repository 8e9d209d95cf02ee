/**
 * SQLite's WAL is copied back into the base once it holds WAL_CHECKPOINT_PAGES (db/client.ts, decision
 * 257), not after every commit past SQLite's default of 1,000 pages: a commit of a few thousand pages (a
 * batch of the request log) leaves the base file as it was, and the WAL stays bounded, copied back once
 * it passes the limit. PostgreSQL has no such setting of ours.
 */
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, test } from 'vitest';
import { allIn, execIn, openDb, sqlitePath, WAL_CHECKPOINT_PAGES, type DbHandle } from '../../db/client';
import { isPg } from '../../db/dialect';
import { ownDatabaseUrl, removeOwnSqlite } from './support/own-database';

const PAGE = 4096;
let url = '';
let db: DbHandle | null = null;
afterAll(async () => {
  await db?.close();
  if (url) removeOwnSqlite(sqlitePath(url));
});

/** One transaction writing about `pages` pages of 1 KiB rows. */
const fill = (handle: DbHandle, pages: number) =>
  handle.transaction((tx) =>
    allIn(
      tx,
      sql`insert into wal_filler (b)
          select randomblob(1024) from (with recursive n(i) as (select 1 union all select i + 1 from n where i < ${pages * 3}) select i from n)
          returning 1`,
    ),
  );

const size = (file: string) => fs.statSync(file).size;

describe.skipIf(isPg)('the WAL is copied back in large steps (only on SQLite: PostgreSQL checkpoints itself)', () => {
  test('a commit of 2,500 pages waits in the WAL; past the limit the WAL is copied back and stays bounded', async () => {
    url = await ownDatabaseUrl();
    db = await openDb(url, { migrate: true });
    const file = sqlitePath(url);
    await db.transaction((tx) => execIn(tx, sql`create table wal_filler (b blob)`));
    const base = size(file);

    // SQLite's default would have copied this commit back at once (more than 1,000 pages).
    await fill(db, 2500);
    expect(size(file)).toBe(base);
    expect(size(`${file}-wal`)).toBeGreaterThan(2500 * PAGE);

    // Past the limit a commit copies the WAL back: the base grows, and the WAL is written again from
    // its start rather than grown for ever.
    for (let written = 2500; written <= WAL_CHECKPOINT_PAGES + 2500; written += 2500) await fill(db, 2500);
    expect(size(file)).toBeGreaterThan(base + WAL_CHECKPOINT_PAGES * PAGE);
    expect(size(`${file}-wal`)).toBeLessThan((WAL_CHECKPOINT_PAGES + 4000) * PAGE);
  });
});
