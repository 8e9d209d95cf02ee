/**
 * Turns a filter plan into SQL conditions. This file owns the dialect differences of filtering:
 * case-insensitive LIKE, null-safe inequality and JSON access for metadata.
 */
import { and, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, not, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { isPg } from '../../db/dialect';
import type { Resource } from '../resources/define';
import { swapApostrophes, swappedText } from './apostrophes';
import type { Binder } from './binder';
import type { Filter, Operand, Operator } from './grammar';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `like` takes the client's own % and _ wildcards; `contains` is a substring match with none. */
function textMatch(target: SQL | PgColumn, op: 'like' | 'contains', pattern: unknown): SQL {
  if (op === 'like') return isPg ? sql`${target} ILIKE ${pattern}` : sql`${target} LIKE ${pattern}`;
  return isPg ? sql`${target} ILIKE ${pattern} ESCAPE '\\'` : sql`${target} LIKE ${pattern} ESCAPE '\\'`;
}

function distinctFrom(target: SQL | PgColumn, value: unknown): SQL {
  return isPg ? sql`${target} IS DISTINCT FROM ${value}` : sql`${target} IS NOT ${value}`;
}

/** `expr` compared with bound values: a column (values stored as the column stores them) or an SQL expression. */
function compare(b: Binder, expr: PgColumn | SQL, op: Operator, values: Operand[]): SQL {
  // drizzle's operators accept columns and SQL alike at run time.
  const target = expr as PgColumn;
  const column = 'mapToDriverValue' in expr ? (expr as PgColumn) : undefined;
  const bind = (x: Operand) => b.bind(x, column);
  if (op === 'like') return textMatch(target, op, b.bind(String(values[0])));
  if (op === 'contains') return textMatch(target, op, b.bind(`%${escapeLike(String(values[0]))}%`));
  if (op === 'null') return isNull(target);
  if (op === 'not-null') return isNotNull(target);
  const v = bind(values[0]);
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
    case 'in':
      return inArray(target, [v, ...values.slice(1).map(bind)]);
    case 'not-in':
      return or(isNull(target), not(inArray(target, [v, ...values.slice(1).map(bind)])))!;
    case 'between':
      return and(gte(target, v), lte(target, bind(values[1])))!;
  }
}

/**
 * metadata[key]: an operand that reads as a number compares numerically with numbers stored under
 * the key, true/false with booleans, anything else as text with strings.
 */
function metadataCondition(b: Binder, table: Resource['table'], key: string, op: Operator, values: Operand[]): SQL {
  const col = (table as unknown as { metadata: PgColumn }).metadata;
  // The key is a value too; each use gets its own placeholder (PostgreSQL numbers them, SQLite counts them).
  const k = () => b.bind(isPg ? key : jsonPath(key));
  if (op === 'null') return isPg ? sql`(${col} -> ${k()}) IS NULL` : sql`json_type(${col}, ${k()}) IS NULL`;
  if (op === 'not-null') return isPg ? sql`(${col} -> ${k()}) IS NOT NULL` : sql`json_type(${col}, ${k()}) IS NOT NULL`;
  const kind = values.every((x) => typeof x === 'number')
    ? 'number'
    : values.every((x) => typeof x === 'boolean')
      ? 'boolean'
      : 'text';
  const operands = kind === 'text' ? values.map(String) : values;
  let target: SQL;
  if (isPg) {
    const jsonType = kind === 'number' ? 'number' : kind === 'boolean' ? 'boolean' : 'string';
    const cast = kind === 'number' ? sql`::numeric` : kind === 'boolean' ? sql`::boolean` : sql``;
    target = sql`(CASE WHEN jsonb_typeof(${col} -> ${k()}) = ${sql.raw(`'${jsonType}'`)} THEN (${col} ->> ${k()})${cast} END)`;
  } else {
    const types =
      kind === 'number' ? sql`('integer', 'real')` : kind === 'boolean' ? sql`('true', 'false')` : sql`('text')`;
    target = sql`(CASE WHEN json_type(${col}, ${k()}) IN ${types} THEN json_extract(${col}, ${k()}) END)`;
    if (kind === 'boolean')
      return compare(
        b,
        target,
        op,
        operands.map((x) => (x ? 1 : 0)),
      );
  }
  if (op === 'ne') return distinctFrom(target, b.bind(operands[0]));
  return compare(b, target, op, operands);
}

const jsonPath = (key: string) => `$."${key.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/**
 * `contains` on a searchable attribute uses the trigram index: on PostgreSQL pg_trgm serves ILIKE on
 * the text with its apostrophes swapped for letters (apostrophes.ts); on SQLite the FTS5 trigram table
 * is matched with a quoted phrase (a substring match, wildcard characters taken literally). Trigrams
 * need three characters: shorter values fall back to LIKE.
 */
export function usesSearchIndex(resource: Resource, f: Filter): boolean {
  return (
    !isPg &&
    f.kind === 'field' &&
    f.op === 'contains' &&
    !!f.field.searchable &&
    !!resource.searchTable &&
    [...String(f.values[0])].length >= 3
  );
}

function searchCondition(b: Binder, resource: Resource, attribute: string, value: string): SQL {
  const fts = sql.identifier(resource.searchTable!);
  const phrase = `${attribute} : "${value.replace(/"/g, '""')}"`;
  return sql`${resource.table.id} IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${b.bind(phrase)})`;
}

/** The filters as SQL, their values bound through `b`. */
export function filterConditions(b: Binder, resource: Resource, filters: Filter[]): SQL[] {
  return filters.map((f) => {
    if (f.kind === 'metadata') return metadataCondition(b, resource.table, f.key, f.op, f.values);
    if (usesSearchIndex(resource, f)) return searchCondition(b, resource, f.attribute, String(f.values[0]));
    if (isPg && f.kind === 'field' && f.field.searchable && (f.op === 'contains' || f.op === 'like'))
      return compare(
        b,
        swappedText(resource.column(f.attribute)!),
        f.op,
        f.values.map((v) => swapApostrophes(String(v))),
      );
    return compare(b, resource.column(f.attribute)!, f.op, f.values);
  });
}
