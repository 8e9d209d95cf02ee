/**
 * JSON built by the database inside a query (a record's embedded children, selected with it in one
 * statement), written once for both dialects. The functions differ (json_build_object / json_agg on
 * PostgreSQL, json_object / json_group_array on SQLite, which orders inside the aggregate since 3.44),
 * and so do booleans, stored JSON and timestamps inside them. Results come back as text on SQLite and
 * parsed on PostgreSQL: read them with fromDbJson (db/dialect.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import { isPg } from './dialect';

/** Key → SQL expression, in the order the object's keys are to appear. */
export type JsonFields = Record<string, string>;

const pairs = (fields: JsonFields) => Object.entries(fields).map(([k, expr]) => `'${k}', ${expr}`).join(', ');

/** One JSON object. */
export const jsonObject = (fields: JsonFields): string => (isPg ? `json_build_object(${pairs(fields)})` : `json_object(${pairs(fields)})`);

/** A JSON array of one object per row, in `orderBy` order; `[]` when there are no rows. */
export const jsonArray = (fields: JsonFields, orderBy: string): string =>
  isPg ? `coalesce(json_agg(${jsonObject(fields)} ORDER BY ${orderBy}), '[]')` : `json_group_array(${jsonObject(fields)} ORDER BY ${orderBy})`;

/** A boolean column as a JSON true/false (SQLite stores 0/1). */
export const jsonBool = (expr: string): string => (isPg ? expr : `json(CASE WHEN ${expr} THEN 'true' ELSE 'false' END)`);

/** A column holding JSON, embedded as JSON rather than as a string (SQLite stores it as text). */
export const jsonStored = (expr: string): string => (isPg ? expr : `json(${expr})`);

/** A timestamp column as our ISO 8601 text (SQLite stores it so already). */
export const jsonTimestamp = (expr: string): string => (isPg ? `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : expr);

/** A correlated subquery selecting `json` (built with the helpers above) `from` the rest of the query. */
export const jsonSubquery = (json: string, from: string): SQL => sql.raw(`(SELECT ${json} ${from})`);
