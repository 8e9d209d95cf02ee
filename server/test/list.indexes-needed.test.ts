/**
 * Every index of a listed resource's table is there for something declared: the default order
 * (account_id, id; a feed's (account_id, position, id)), a sortable or filterable attribute's column right after account_id (the sort and
 * filter indexes: server/list/scans.ts derives from them which filters scan), or a domain query named
 * below with what reads it. An index is also refused when another on the same rows starts with all of
 * its columns (the longer one serves the same reads). And every sortable attribute has its
 * (account_id, column, id) index. Indexes cost every write and their disk (invoices carried 20: 1.44 GB
 * on a 0.45 GB table), so a new one needs a declaration that uses it.
 */
import { getTableName } from 'drizzle-orm';
import { getTableConfig as pgTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, test } from 'vitest';
import { isPg } from '../../db/dialect';
import { RESOURCES } from '../resources';
import type { Resource } from '../resources/define';

/** Indexes the domain's own queries read, by name, with the reader. */
const DOMAIN_INDEXES: Record<string, string> = {
  events_event_idx: 'GET /events/{id} and webhook replays: an event by its id, in its clinic',
  events_sweep_idx: 'server/jobs retention sweep of events by occurred_at',
  deleted_entities_sweep_idx: 'server/jobs retention sweep of deleted_entities by deleted_at',
  appointments_unarrived_idx: 'server/jobs/missed.ts: booked appointments that ended, by ends_utc',
};

interface Shape {
  name: string;
  columns: string[];
  unique: boolean;
  where: string;
}

/** The table's indexes, its primary key among them (on PostgreSQL `(account_id, id)`: db/dialect.ts `table`). */
function indexes(table: Resource['table']): Shape[] {
  const config = isPg ? pgTableConfig(table as PgTable) : sqliteTableConfig(table as unknown as SQLiteTable);
  const keys = config.primaryKeys.map((k) => ({
    name: k.getName(),
    columns: (k.columns as { name: string }[]).map((c) => c.name),
    unique: true,
    where: 'null',
  }));
  return [
    ...keys,
    ...config.indexes.map((i) => {
      const where = i.config.where as unknown as { queryChunks?: { value?: string[] }[] } | undefined;
      return {
        name: i.config.name!,
        columns: (i.config.columns as unknown as { name?: string }[]).map((c) => c.name ?? '?'),
        unique: !!i.config.unique,
        where: JSON.stringify(where?.queryChunks?.map((c) => c.value ?? null) ?? null),
      };
    }),
  ];
}

const listed = Object.values(RESOURCES).filter((r) => r.list) as Resource[];
// One table may back a resource only once here (the first resource listed on it).
const tables = [...new Map(listed.map((r) => [getTableName(r.table), r])).entries()];

describe('every index is used by a declared sort, filter or domain query', () => {
  test.each(tables)('%s', (_table, r) => {
    const declared = new Set(
      Object.keys({ ...r.fields, ...r.filters })
        .filter((k) => r.fields[k]?.sortable || Object.hasOwn(r.filters, k))
        .map((k) => r.column(k)?.name)
        .filter((c): c is string => !!c),
    );
    const all = indexes(r.table);
    const unused = all.filter(
      (i) =>
        !(i.name in DOMAIN_INDEXES) &&
        !(
          i.columns[0] === 'account_id' &&
          // The default order: by id, or a feed's by its commit position (server/list/feed.ts).
          (i.columns[1] === 'id' || i.columns[1] === r.feed?.position?.name || declared.has(i.columns[1]))
        ),
    );
    expect(unused.map((i) => `${i.name}(${i.columns.join(', ')})`)).toEqual([]);
    const redundant = all.filter(
      (i) =>
        !i.unique &&
        all.some(
          (o) =>
            o !== i &&
            o.where === i.where &&
            o.columns.length > i.columns.length &&
            i.columns.every((c, n) => o.columns[n] === c),
        ),
    );
    expect(redundant.map((i) => i.name)).toEqual([]);
  });

  test.each(tables)('%s: every sortable attribute has its (account_id, column, id) index', (_table, r) => {
    const all = indexes(r.table);
    const missing = Object.entries(r.fields)
      .filter(([, f]) => f.sortable)
      .map(([k]) => r.column(k)!.name)
      .filter(
        (c) =>
          !all.some(
            (i) => i.columns[0] === 'account_id' && i.columns[1] === c && (c === 'id' || i.columns.includes('id')),
          ),
      );
    expect(missing).toEqual([]);
  });
});
