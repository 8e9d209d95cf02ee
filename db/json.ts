/**
 * Records embedded in a read (a patient's numbers, an invoice's lines), declared once and read two
 * ways, with the JSON built by the database (written once for both dialects: json_build_object /
 * json_agg on PostgreSQL, json_object / json_group_array on SQLite; booleans, stored JSON and
 * timestamps differ inside them):
 * - `embedColumn`: a correlated subquery selected with the record itself, for single reads (one
 *   statement; measured on the patient read: four queries became one) and, on PostgreSQL, for the rows
 *   of a first or cursor list page (server/list/engine.ts: a round trip fewer);
 * - `embedBatch`: one statement for a whole list page and all its embeds, each embedded row with the key
 *   of its record, on SQLite (measured on a 50-patient page: 150 correlated subqueries cost ~90 µs more)
 *   and for PostgreSQL's pages past an OFFSET.
 * Results come back as text on SQLite and parsed on PostgreSQL: read them with fromDbJson (db/dialect.ts).
 */
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from './client';
import { isPg } from './dialect';

/** Key → SQL expression, in the order the object's keys are to appear. */
export type JsonFields = Record<string, string>;
/** Values that need converting to come out as JSON of the right type. */
export type JsonKinds = Record<string, 'bool' | 'json' | 'timestamp'>;

/**
 * What a record embeds, in SQL over the embedded rows (`from` names them with an alias). They belong
 * to the record where `key` equals the record's `parentColumn` (default `id`: its children; a foreign
 * key such as `patient_id`: the record it points to), always within the record's account.
 */
export interface Embed {
  fields: JsonFields;
  /** The rows, with joins: `patient_tags pt JOIN tags t ON t.id = pt.tag_id`. */
  from: string;
  /** Their account column: `pt.account_id`. */
  account: string;
  /** Their column naming the record: `pt.patient_id` (or `p.id`, for the record a foreign key points to). */
  key: string;
  /** The record's column `key` matches (its property in the drizzle table): `id` when absent. */
  parentColumn?: string;
  /** A further condition on the rows. */
  where?: string;
  /** Present: an array in this order. Absent: one object (null when there is none). */
  orderBy?: string;
  kinds?: JsonKinds;
}

const pgValue = (expr: string, kind?: JsonKinds[string]) =>
  kind === 'timestamp' ? `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : expr;
// SQLite stores booleans as 0/1 and JSON and timestamps as text; json() makes JSON text a JSON value.
const sqliteValue = (expr: string, kind?: JsonKinds[string]) =>
  kind === 'bool' ? `json(CASE WHEN ${expr} THEN 'true' ELSE 'false' END)` : kind === 'json' ? `json(${expr})` : expr;

const pairs = (fields: JsonFields, value: (key: string, expr: string) => string) =>
  Object.entries(fields)
    .map(([k, expr]) => `'${k}', ${value(k, expr)}`)
    .join(', ');

/** The JSON object of one embedded row. */
function object(e: Embed): string {
  const kinds = e.kinds ?? {};
  return isPg
    ? `json_build_object(${pairs(e.fields, (k, x) => pgValue(x, kinds[k]))})`
    : `json_object(${pairs(e.fields, (k, x) => sqliteValue(x, kinds[k]))})`;
}

/** The record column an embed's rows point at. */
export const parentColumnOf = (e: Embed) => e.parentColumn ?? 'id';

/** embedBatch's placeholder for the keys of the records' `column` (bound with `embedKeys`). */
export const keysParam = (column: string) => `keys_${column}`;

/** The embed's rows of `account` whose key `matches`. */
const rowsOf = (e: Embed, account: SQL | Placeholder, matches: SQL) =>
  sql`FROM ${sql.raw(e.from)} WHERE ${sql.raw(e.account)} = ${account} AND ${sql.raw(e.key)} ${matches}${sql.raw(e.where ? ` AND ${e.where}` : '')}`;

/**
 * The embed as a column of a select of `parentTable`: JSON of the record's rows, read as the driver gives it
 * (the identity decoder: the list engine's row decoder reads it like drizzle, text on SQLite, parsed on
 * PostgreSQL; read with fromDbJson).
 */
export function embedColumn(parentTable: string, e: Embed, account: number | Placeholder): SQL {
  return embedSubquery(parentTable, e, account).mapWith((raw: unknown) => raw);
}

/**
 * `account`: the clinic the statement reads (a value, or its placeholder), bound in the embed's rows too.
 * Citus routes a statement to one shard only when every table in it, those of correlated subqueries too,
 * is bound to a value of its distribution column; matched to the record's own account_id instead, it
 * sent a patient's read to every shard.
 */
function embedSubquery(parentTable: string, e: Embed, account: number | Placeholder): SQL {
  const parent = (col: string) => sql.raw(`"${parentTable}"."${col}"`);
  const from = rowsOf(e, sql`${account}`, sql`= ${parent(parentColumnOf(e))}`);
  if (!e.orderBy) return sql`(SELECT ${sql.raw(object(e))} ${from} LIMIT 1)`;
  if (isPg) return sql`(SELECT coalesce(json_agg(${sql.raw(object(e))} ORDER BY ${sql.raw(e.orderBy)}), '[]') ${from})`;
  // On SQLite the rows are ordered in a subquery rather than inside the aggregate: measured on the
  // patient read, json_group_array(... ORDER BY ...) cost about a tenth of its throughput.
  const columns = Object.entries(e.fields)
    .map(([k, expr]) => `${expr} AS "${k}"`)
    .join(', ');
  const inner = Object.fromEntries(Object.keys(e.fields).map((k) => [k, `x."${k}"`]));
  return sql`(SELECT json_group_array(${sql.raw(object({ ...e, fields: inner }))}) FROM (SELECT ${sql.raw(columns)} ${from} ORDER BY ${sql.raw(e.orderBy)}) x)`;
}

/**
 * The rows of every embed of many records at once, in one statement (one round trip: on PostgreSQL three
 * statements for a page's three embeds cost a quarter of the list's throughput), in order: `embed` is the
 * embed's position in `embeds`, `owner` the value of the record's parentColumn, `item` the row's JSON.
 * Placeholders: `account`, and `keysParam(column)` for each parentColumn used.
 */
export function embedBatch(db: Db, embeds: Embed[]) {
  const arms = embeds.map((e, i) => {
    const keys = sql.placeholder(keysParam(parentColumnOf(e)));
    const among = isPg ? sql`= ANY(CAST(${keys} AS bigint[]))` : sql`IN (SELECT value FROM json_each(${keys}))`;
    const ord = e.orderBy ?? e.key;
    return sql`SELECT ${sql.raw(`${i} AS embed, ${e.key} AS owner, ${object(e)} AS item, row_number() OVER (ORDER BY ${ord}) AS ord`)} ${rowsOf(e, sql.placeholder('account'), among)}`;
  });
  return db
    .select({
      embed: sql<number>`x.embed`.mapWith(Number),
      owner: sql<number>`x.owner`.mapWith(Number),
      item: sql`x.item`,
    })
    .from(sql`(${sql.join(arms, sql` UNION ALL `)}) x`)
    .orderBy(sql`x.embed`, sql`x.ord`);
}

/** The `keys` parameter of embedBatch: an array on PostgreSQL, JSON text on SQLite. */
export const embedKeys = (keys: number[]) => (isPg ? keys : JSON.stringify(keys));
