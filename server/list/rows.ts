/**
 * Rows of a prepared select, decoded once per column instead of once per cell. drizzle maps each row
 * cell by cell, asking of every cell what kind of field it came from (measured: 10% of a 50-row list
 * page); here the rows are read as arrays and decoded with the decoders looked up once per selection.
 * On SQLite through the prepared query's `values`; on PostgreSQL by sending the prepared query's own
 * array-mode config (drizzle's internals: without them, drizzle's mapping).
 */
import { is, SQL, Column, fillPlaceholders } from 'drizzle-orm';
import { isPg } from '../../db/dialect';
import type { Row } from '../resources/define';
import { fallbacks } from '../shortcuts';

type Decode = (raw: unknown) => unknown;
interface Prepared {
  execute(placeholders?: Record<string, unknown>): unknown;
  values?(placeholders?: Record<string, unknown>): unknown;
  // drizzle's node-postgres prepared query: its array-mode config (named, with drizzle's type parsers).
  client?: { query(config: object, params: unknown[]): Promise<{ rows: unknown[][] }> };
  queryConfig?: { rowMode?: string };
  params?: unknown[];
}

type Selection = Record<string, unknown>;
const decoders = new WeakMap<Selection, (values: unknown[]) => Row>();

function decoderOf(selection: Selection): (values: unknown[]) => Row {
  let decode = decoders.get(selection);
  if (decode) return decode;
  const columns = Object.entries(selection).map(([key, field]): [string, Decode] => {
    if (is(field, Column)) return [key, (raw) => field.mapFromDriverValue(raw)];
    // sql`…`.mapWith(…) sets a decoder drizzle does not type as public.
    const decoder = is(field, SQL)
      ? (field as unknown as { decoder?: { mapFromDriverValue(raw: unknown): unknown } }).decoder
      : undefined;
    if (is(field, SQL) && !decoder) fallbacks.seen?.('drizzle-sql-decoder', key);
    return [key, decoder ? (raw) => decoder.mapFromDriverValue(raw) : (raw) => raw];
  });
  decode = (values) => {
    const row: Row = {};
    for (let i = 0; i < columns.length; i++) {
      const raw = values[i];
      row[columns[i][0]] = raw === null || raw === undefined ? null : columns[i][1](raw);
    }
    return row;
  };
  decoders.set(selection, decode);
  return decode;
}

/** The rows a prepared select of `selection` returns, as objects keyed like drizzle's. */
export async function selectedRows(
  selection: Selection,
  query: Prepared,
  placeholders: Record<string, unknown>,
): Promise<Row[]> {
  if (!isPg && query.values) return (query.values(placeholders) as unknown[][]).map(decoderOf(selection));
  if (isPg && query.client && query.queryConfig?.rowMode === 'array' && query.params) {
    const { rows } = await query.client.query(query.queryConfig, fillPlaceholders(query.params, placeholders));
    return rows.map(decoderOf(selection));
  }
  fallbacks.seen?.('drizzle-row-mapping', isPg ? 'postgresql' : 'sqlite');
  return (await query.execute(placeholders)) as Row[];
}
