/**
 * Migrating analyzes what a migration left without statistics (db/client.ts): a column whose type
 * changed (integer → bigint in 0029) loses its statistics, and until autovacuum happens to re-analyze the
 * table PostgreSQL plans a big clinic's lists as if it were an average clinic's. On a database of the
 * test's own (it changes a table's columns).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrateDb, openDb, type DbHandle } from '../../db/client';
import { isPg } from '../../db/dialect';
import { ownDatabaseUrl } from './support/own-database';

let db: DbHandle;
beforeAll(async () => {
  if (isPg) db = await openDb(await ownDatabaseUrl(), { migrate: true });
}, 60_000);
afterAll(async () => {
  await db?.close();
});

const analyzed = async (column: string) =>
  (
    await db.all<{ n: number }>(
      sql`select count(*)::int as n from pg_stats where schemaname = current_schema() and tablename = 'stats_probe' and attname = ${column}`,
    )
  )[0]!.n === 1;

test.runIf(isPg)(
  'a column whose type a migration changed is analyzed again when migrations run (only on PostgreSQL)',
  async () => {
    await db.all(sql`create table stats_probe (id integer primary key, account_id integer not null)`);
    await db.all(sql`insert into stats_probe select g, 1 + g % 3 from generate_series(1, 1000) g`);
    await db.all(sql`analyze stats_probe`);
    expect(await analyzed('account_id')).toBe(true);

    await db.all(sql`alter table stats_probe alter column account_id type bigint`);
    expect(await analyzed('account_id')).toBe(false);

    await migrateDb(db);
    expect(await analyzed('account_id')).toBe(true);
    expect(await analyzed('id')).toBe(true);
  },
);
