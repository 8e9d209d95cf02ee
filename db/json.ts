/**
 * JSON built by the database inside a query (a record's embedded children, selected with it in one
 * statement as correlated subqueries), written once for both dialects. The functions differ
 * (json_build_object / json_agg on PostgreSQL, json_object / json_group_array on SQLite), and so do
 * booleans, stored JSON and timestamps inside them. Results come back as text on SQLite and parsed on
 * PostgreSQL: read them with fromDbJson (db/dialect.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import { isPg } from './dialect';

/** Key → SQL expression, in the order the object's keys are to appear. */
export type JsonFields = Record<string, string>;
/** Values that need converting to come out as JSON of the right type. */
export type JsonKinds = Record<string, 'bool' | 'json' | 'timestamp'>;

const pgValue = (expr: string, kind?: JsonKinds[string]) =>
  kind === 'timestamp' ? `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : expr;
// SQLite stores booleans as 0/1 and JSON and timestamps as text; json() makes JSON text a JSON value.
const sqliteValue = (expr: string, kind?: JsonKinds[string]) =>
  kind === 'bool' ? `json(CASE WHEN ${expr} THEN 'true' ELSE 'false' END)` : kind === 'json' ? `json(${expr})` : expr;

const pairs = (fields: JsonFields, value: (key: string, expr: string) => string) =>
  Object.entries(fields)
    .map(([k, expr]) => `'${k}', ${value(k, expr)}`)
    .join(', ');

/** One JSON object from the first row of `from` (null when there is none). */
export function jsonObject(fields: JsonFields, from: string, kinds: JsonKinds = {}): SQL {
  const object = isPg ? `json_build_object(${pairs(fields, (k, e) => pgValue(e, kinds[k]))})` : `json_object(${pairs(fields, (k, e) => sqliteValue(e, kinds[k]))})`;
  return sql.raw(`(SELECT ${object} ${from} LIMIT 1)`);
}

/**
 * A JSON array of one object per row of `from`, in `orderBy` order; `[]` when there are no rows. On
 * SQLite the rows are ordered in a subquery rather than inside the aggregate: measured on the patient
 * read, json_group_array(... ORDER BY ...) cost about a tenth of its throughput.
 */
export function jsonArray(fields: JsonFields, from: string, orderBy: string, kinds: JsonKinds = {}): SQL {
  if (isPg) return sql.raw(`(SELECT coalesce(json_agg(json_build_object(${pairs(fields, (k, e) => pgValue(e, kinds[k]))}) ORDER BY ${orderBy}), '[]') ${from})`);
  const columns = Object.entries(fields)
    .map(([k, expr]) => `${expr} AS "${k}"`)
    .join(', ');
  return sql.raw(`(SELECT json_group_array(json_object(${pairs(fields, (k) => sqliteValue(`x."${k}"`, kinds[k]))})) FROM (SELECT ${columns} ${from} ORDER BY ${orderBy}) x)`);
}
