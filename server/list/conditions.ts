/**
 * Turns a filter plan into SQL conditions. This file owns the dialect differences of filtering:
 * case-insensitive LIKE, null-safe inequality and JSON access for metadata.
 */
import { and, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, not, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { isPg } from '../../db/dialect';
import type { Resource } from '../resources/define';
import type { Filter, Operand, Operator } from './grammar';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function likeCi(target: SQL | PgColumn, pattern: string): SQL {
  return isPg ? sql`${target} ILIKE ${pattern} ESCAPE '\\'` : sql`${target} LIKE ${pattern} ESCAPE '\\'`;
}

/** `like` takes the client's own % and _ wildcards; `contains` is a substring match with none. */
function textMatch(target: SQL | PgColumn, op: 'like' | 'contains', value: string): SQL {
  if (op === 'like') return isPg ? sql`${target} ILIKE ${value}` : sql`${target} LIKE ${value}`;
  return likeCi(target, `%${escapeLike(value)}%`);
}

function distinctFrom(target: SQL | PgColumn, value: unknown): SQL {
  return isPg ? sql`${target} IS DISTINCT FROM ${value}` : sql`${target} IS NOT ${value}`;
}

function compare(expr: PgColumn | SQL, op: Operator, values: Operand[]): SQL {
  const [v, w] = values;
  // drizzle's operators accept columns and SQL alike at run time; columns also map values (booleans on SQLite).
  const target = expr as PgColumn;
  switch (op) {
    case 'eq':
      return eq(target, v);
    case 'ne':
      return distinctFrom(target, v);
    case 'gt':
      return gt(target, v);
    case 'gte':
      return gte(target, v);
    case 'lt':
      return lt(target, v);
    case 'lte':
      return lte(target, v);
    case 'null':
      return isNull(target);
    case 'not-null':
      return isNotNull(target);
    case 'in':
      return inArray(target, values);
    case 'not-in':
      return or(isNull(target), not(inArray(target, values)))!;
    case 'between':
      return and(gte(target, v), lte(target, w))!;
    case 'like':
    case 'contains':
      return textMatch(target, op, String(v));
  }
}

/**
 * metadata[key]: an operand that reads as a number compares numerically with numbers stored under
 * the key, true/false with booleans, anything else as text with strings.
 */
function metadataCondition(table: Resource['table'], key: string, op: Operator, values: Operand[]): SQL {
  const col = (table as unknown as { metadata: PgColumn }).metadata;
  if (op === 'null') return isPg ? sql`(${col} -> ${key}) IS NULL` : sql`json_type(${col}, ${jsonPath(key)}) IS NULL`;
  if (op === 'not-null') return isPg ? sql`(${col} -> ${key}) IS NOT NULL` : sql`json_type(${col}, ${jsonPath(key)}) IS NOT NULL`;
  const kind = values.every((x) => typeof x === 'number') ? 'number' : values.every((x) => typeof x === 'boolean') ? 'boolean' : 'text';
  const operands = kind === 'text' ? values.map(String) : values;
  let target: SQL;
  if (isPg) {
    const jsonType = kind === 'number' ? 'number' : kind === 'boolean' ? 'boolean' : 'string';
    const cast = kind === 'number' ? sql`::numeric` : kind === 'boolean' ? sql`::boolean` : sql``;
    target = sql`(CASE WHEN jsonb_typeof(${col} -> ${key}) = ${jsonType} THEN (${col} ->> ${key})${cast} END)`;
  } else {
    const types = kind === 'number' ? sql`('integer', 'real')` : kind === 'boolean' ? sql`('true', 'false')` : sql`('text')`;
    target = sql`(CASE WHEN json_type(${col}, ${jsonPath(key)}) IN ${types} THEN json_extract(${col}, ${jsonPath(key)}) END)`;
    if (kind === 'boolean') return compare(target, op, operands.map((b) => (b ? 1 : 0)));
  }
  if (op === 'ne') return distinctFrom(target, operands[0]);
  return compare(target, op, operands);
}

const jsonPath = (key: string) => `$."${key.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/**
 * `contains` on a searchable attribute uses the trigram index: on PostgreSQL pg_trgm serves ILIKE
 * directly; on SQLite the FTS5 trigram table is matched with a quoted phrase (a substring match, wildcard
 * characters taken literally). Trigrams need three characters: shorter values fall back to LIKE.
 */
function searchCondition(resource: Resource, attribute: string, value: string): SQL | null {
  if (isPg || !resource.searchTable || [...value].length < 3) return null;
  const fts = sql.identifier(resource.searchTable);
  const phrase = `${attribute} : "${value.replace(/"/g, '""')}"`;
  return sql`${resource.table.id} IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${phrase})`;
}

/** The filters as SQL; `searchDriven` when a trigram index lookup narrows the rows (see baseConditions). */
export function filterConditions(resource: Resource, filters: Filter[]): { conditions: SQL[]; searchDriven: boolean } {
  let searchDriven = false;
  const conditions = filters.map((f) => {
    if (f.kind === 'metadata') return metadataCondition(resource.table, f.key, f.op, f.values);
    if (f.op === 'contains' && f.field.searchable) {
      const viaIndex = searchCondition(resource, f.attribute, String(f.values[0]));
      if (viaIndex) {
        searchDriven = true;
        return viaIndex;
      }
    }
    return compare(resource.column(f.attribute)!, f.op, f.values);
  });
  return { conditions, searchDriven };
}
