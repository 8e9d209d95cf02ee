/**
 * Which filters an index serves, and which read every one of the clinic's rows: derived from the
 * table's own indexes (db/schema), so /schema, OpenAPI and MCP state what the database does and
 * server/test/list.filter-indexes.test.ts proves it with the database's plans. A filter on attribute
 * `a` is served when an index leads with (account_id, a) (or a unique index with a alone), for the
 * operators a B-tree answers; `contains` on a searchable attribute is served by its trigram index
 * (three characters or more).
 * Everything else scans: on a clinic with more than SCAN_LIMIT.rows records of the resource, a list
 * whose every filter scans is refused (422 invalid_input) instead of reading millions of rows.
 */
import { and, count, sql, type SQL } from 'drizzle-orm';
import { getTableConfig as pgTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { isPg } from '../../db/dialect';
import { prepared } from '../../db/prepared';
import { ApiError } from '../errors';
import type { AnyResource } from '../resources/define';
import type { Field } from '../resources/fields';
import type { Filter, Operator } from './grammar';

/** Operators an index on the column answers as a range of it; the others (ne, not-in, not-null, like) read every row. */
const INDEXED_OPERATORS: ReadonlySet<string> = new Set(['eq', 'in', 'gt', 'gte', 'lt', 'lte', 'between', 'null']);

/**
 * The clinic size above which a list filtered only by scanning filters is refused. 100,000 rows of one
 * resource read in one request cost hundreds of milliseconds on PostgreSQL and SQLite alike (bench/RESULTS.md);
 * below it a scan is a few milliseconds. Mutable for tests.
 */
export const SCAN_LIMIT = { rows: 100_000 };

interface IndexShape {
  columns: string[];
  unique: boolean;
}

const shapes = new WeakMap<object, IndexShape[]>();

/**
 * The table's declared indexes as column names (expressions and sort options aside), its primary key
 * among them: on PostgreSQL `(account_id, id)` is the key, not a separate index (db/dialect.ts `table`).
 */
export function indexesOf(table: AnyResource['table']): IndexShape[] {
  let out = shapes.get(table);
  if (out) return out;
  const config = isPg ? pgTableConfig(table as PgTable) : sqliteTableConfig(table as unknown as SQLiteTable);
  out = [
    ...config.primaryKeys.map((k) => ({ columns: (k.columns as { name: string }[]).map((c) => c.name), unique: true })),
    ...config.indexes.map((i) => ({
      columns: (i.config.columns as unknown as { name?: string }[]).map((c) => c.name ?? ''),
      unique: !!i.config.unique,
    })),
  ];
  shapes.set(table, out);
  return out;
}

/** The stored column a filter parameter compares, or undefined for computed attributes. */
const columnOf = (resource: AnyResource, attribute: string): string | undefined => resource.column(attribute)?.name;

/** Whether an index of the resource's table leads with the attribute's column inside the account. */
export function hasFilterIndex(resource: AnyResource, attribute: string): boolean {
  const col = columnOf(resource, attribute);
  if (!col) return false;
  return indexesOf(resource.table).some(
    (i) => (i.columns[0] === 'account_id' && i.columns[1] === col) || (i.unique && i.columns[0] === col),
  );
}

/** Whether a filter with this operator reads every one of the clinic's rows. */
export function filterScans(resource: AnyResource, attribute: string, field: Field, op: Operator | string): boolean {
  if (op === 'contains' && field.searchable) return false;
  return !(INDEXED_OPERATORS.has(op) && hasFilterIndex(resource, attribute));
}

/** The operators of `operators` that scan, for the documents (/schema, OpenAPI, MCP). */
export const scanningOperators = (
  resource: AnyResource,
  attribute: string,
  field: Field,
  operators: string[],
): string[] => operators.filter((op) => filterScans(resource, attribute, field, op));

/** What happens to a list whose filters all scan, for the documents. */
export const scanRefusal = (): string =>
  `alone, it is refused (422 invalid_input) on clinics with more than ${SCAN_LIMIT.rows.toLocaleString('en')} of these records; combine it with a filter an index serves.`;

/** The sentence the documents give a filter with scanning operators. */
export const scanSentence = (ops: string[]): string =>
  ops.length ? `With ${ops.join(', ')} this filter scans the clinic's rows (no index serves it): ${scanRefusal()}` : '';

/** The filter parameters an index serves with eq, for the refusal's suggestion. */
export const indexedFilters = (resource: AnyResource): string[] =>
  Object.entries(resource.filters as Record<string, Field>)
    .filter(([k, f]) => !filterScans(resource, k, f, 'eq'))
    .map(([k]) => k);

/** At request time: trigrams need three characters, so a shorter `contains` scans even on a searchable attribute. */
const filterScansOf = (resource: AnyResource, f: Filter) =>
  f.kind === 'metadata' ||
  filterScans(resource, f.attribute, f.field, f.op) ||
  (f.op === 'contains' && [...String(f.values[0])].length < 3);

/**
 * Refuses a list whose filters all scan, on a clinic with more than SCAN_LIMIT.rows records of the
 * resource (counted up to the limit only). `base`: the account and scope conditions; `values` their bound values.
 */
export async function refuseScanningFilters(
  db: Db,
  resource: AnyResource,
  filters: Filter[],
  base: SQL[],
  values: Record<string, unknown>,
): Promise<void> {
  if (filters.length === 0 || !filters.every((f) => filterScansOf(resource, f))) return;
  const limit = SCAN_LIMIT.rows;
  const capped = prepared(db, `scan-limit:${resource.name}:${limit}`, () =>
    db.select({ n: count() }).from(
      db
        .select({ one: sql`1` })
        .from(resource.table)
        .where(and(...base))
        .limit(limit + 1)
        .as('clinic_rows'),
    ),
  );
  const [{ n }] = await capped.execute(values);
  if (n <= limit) return;
  const first = filters[0];
  const param = first.kind === 'metadata' ? `metadata[${first.key}]` : first.attribute;
  const how = first.kind === 'metadata' ? 'metadata filter' : `filter ${param}=${first.op}:…`;
  const indexed = indexedFilters(resource);
  const message =
    `The ${how} scans all of this clinic's ${resource.name} (more than ${limit.toLocaleString('en')}); combine it with a filter an index serves` +
    (indexed.length ? ` (eq, in or a range on ${indexed.join(', ')})` : '') +
    '. GET /schema/' +
    resource.name +
    ' lists which filters scan.';
  throw new ApiError('invalid_input', message, { [param]: [message] });
}
