/**
 * SQLite's planner statistics follow the tables as they grow (the hourly job `statistics.refresh`,
 * server/jobs/statistics.ts). A base opened with a few webhook messages is analyzed at that size, where
 * walking the rowid is the cheapest way to an endpoint's newest page; grown to many clinics' messages,
 * the server's reader, a connection that loaded the old statistics, keeps that plan until the refresh,
 * and after it reads the page through the endpoint's index. On PostgreSQL autovacuum analyzes grown
 * tables, and the refresh does nothing.
 */
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, test } from 'vitest';
import { allIn, openDb, type DbHandle } from '../../db/client';
import { isPg } from '../../db/dialect';
import { ownDatabaseUrl, removeOwnSqlite } from './support/own-database';

const opened: { url: string; db: DbHandle }[] = [];
afterAll(async () => {
  for (const { url, db } of opened) {
    await db.close();
    removeOwnSqlite(url);
  }
});

async function open(url: string) {
  const db = await openDb(url, { migrate: true });
  opened.push({ url, db });
  return db;
}

/** `count` messages spread over `clinics` clinics of one endpoint each, ids after those already there. */
async function addMessages(db: DbHandle, clinics: number, count: number) {
  const now = new Date().toISOString();
  await db.transaction((tx) =>
    allIn(
      tx,
      sql`insert into webhook_messages
            (account_id, endpoint_id, event_id, event_type, payload, status, attempts, created_at, updated_at)
          select i % ${clinics} + 1, i % ${clinics} + 1, 'evt_' || i, 'patients.updated', '{}', 'delivered', 1, ${now}, ${now}
          from (with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count}) select i from n)
          returning 1`,
    ),
  );
}

const PAGE = sql`select id, event_type, status from webhook_messages
  where account_id = ${7} and endpoint_id = ${7} and id < ${1_000_000_000} order by id desc limit 26`;

/**
 * How the reader plans an endpoint's next page of messages, once it has read it: a statement notices a
 * changed schema when it reads, and EXPLAIN alone reads nothing.
 */
async function pagePlan(db: DbHandle): Promise<string> {
  await db.all(PAGE);
  const rows = await db.all<{ detail: string }>(sql`explain query plan ${PAGE}`);
  return rows.map((r) => r.detail).join('; ');
}

describe.skipIf(isPg)(
  'planner statistics follow the tables as they grow (only on SQLite: PostgreSQL autovacuum analyzes them)',
  () => {
    test('a grown base is planned by its indexes after the refresh, by every connection; unchanged, nothing is touched', async () => {
      const url = await ownDatabaseUrl();
      await addMessages(await open(url), 5, 10);
      // Opened again, as a server starts on the small base: PRAGMA optimize analyzes it at ten rows.
      const db = await open(url);
      expect(await pagePlan(db)).toMatch(/USING INTEGER PRIMARY KEY \(rowid<\?\)/);

      await addMessages(db, 200, 20_000);
      // What every long-lived connection did before the job: the reader keeps the statistics of ten rows.
      expect(await pagePlan(db)).toMatch(/USING INTEGER PRIMARY KEY \(rowid<\?\)/);

      expect(await db.refreshStatistics()).toBe(true);
      const byIndex =
        /USING (COVERING )?INDEX webhook_messages_endpoint\w* \(account_id=\? AND endpoint_id=\? AND id<\?\)/;
      expect(await pagePlan(db)).toMatch(byIndex);
      // Another process's connection, opened before the refresh, plans by the new statistics too.
      expect(await pagePlan(opened[0].db)).toMatch(byIndex);

      const version = async () => (await db.all<{ schema_version: number }>(sql`pragma schema_version`))[0];
      const before = await version();
      expect(await db.refreshStatistics()).toBe(false);
      expect(await version()).toEqual(before);
    });
  },
);
