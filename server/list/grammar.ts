/**
 * The filter and sort grammar of list endpoints: `?attribute=operator:value`, `metadata[key]=...`,
 * `?sort=a,b:desc`. Turns the raw query into a typed plan; knows nothing of SQL.
 */
import { invalid as fail } from '../errors';
import type { Resource } from '../resources/define';
import type { Field } from '../resources/fields';
import { parseOperand } from './values';

export const OPERATORS = [
  'eq',
  'ne',
  'gt',
  'gte',
  'lt',
  'lte',
  'null',
  'not-null',
  'like',
  'contains',
  'in',
  'not-in',
  'between',
] as const;
export type Operator = (typeof OPERATORS)[number];
export type Operand = string | number | boolean;

export interface FieldFilter {
  kind: 'field';
  attribute: string;
  field: Field;
  op: Operator;
  values: Operand[];
}
export interface MetadataFilter {
  kind: 'metadata';
  key: string;
  op: Operator;
  values: Operand[];
}
export type Filter = FieldFilter | MetadataFilter;
export interface SortKey {
  attribute: string;
  desc: boolean;
}

export const RESERVED_PARAMS = new Set(['page', 'page_size', 'cursor', 'sort']);
const ORDERED_KINDS = new Set(['integer', 'string', 'timestamp', 'date', 'walltime', 'enum', 'decimal', 'money']);
const TEXT_KINDS = new Set(['string', 'enum']);
const METADATA_PARAM = /^metadata\[(.+)\]$/;

/**
 * Splits `op:value`. Only a known operator before the first colon is an operator; any other value,
 * colons and all, is an equality match on the whole value (the spec: a value with no operator is an
 * equality match), so `note=abc:def` matches "abc:def".
 */
function splitOperator(raw: string): { op: Operator; rest: string } {
  const i = raw.indexOf(':');
  if (i > 0) {
    const op = raw.slice(0, i);
    if ((OPERATORS as readonly string[]).includes(op)) return { op: op as Operator, rest: raw.slice(i + 1) };
  }
  if (raw === 'null' || raw === 'not-null') return { op: raw, rest: '' };
  return { op: 'eq', rest: raw };
}

function operandsFor(attribute: string, op: Operator, rest: string, parse: (s: string) => Operand): Operand[] {
  if (op === 'null' || op === 'not-null') {
    if (rest !== '') throw fail(attribute, `${op} takes no value`);
    return [];
  }
  if (op === 'in' || op === 'not-in' || op === 'between') {
    const parts = rest.split(',');
    if (parts.some((p) => p === '')) throw fail(attribute, `${op} takes comma-separated values`);
    if (op === 'between' && parts.length !== 2)
      throw fail(attribute, 'between takes exactly two comma-separated values');
    if (parts.length > 100) throw fail(attribute, `${op} takes at most 100 values`);
    return parts.map(parse);
  }
  if (rest === '' && op !== 'eq') throw fail(attribute, `${op} needs a value`);
  return [parse(rest)];
}

function metadataOperand(raw: string): Operand {
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (/^-?\d+(\.\d+)?$/.test(raw) && raw.length < 20) return Number(raw);
  return raw;
}

/** `region`: the account's, for filter values read in the account's terms (a field's `operand`). */
export function parseFilters(
  resource: Resource,
  query: Record<string, string | string[] | undefined>,
  region = '',
): Filter[] {
  const filters: Filter[] = [];
  for (const [param, rawValue] of Object.entries(query)) {
    if (RESERVED_PARAMS.has(param) || rawValue === undefined || (param === 'wait' && resource.feed)) continue;
    const raws = Array.isArray(rawValue) ? rawValue : [rawValue];
    const meta = METADATA_PARAM.exec(param);
    if (meta) {
      if (!Object.hasOwn(resource.fields, 'metadata'))
        throw fail(param, `${resource.name} have no metadata to filter on`);
      const key = meta[1];
      if (key.length > 255) throw fail(param, 'metadata key too long');
      for (const raw of raws) {
        const { op, rest } = splitOperator(raw);
        filters.push({ kind: 'metadata', key, op, values: operandsFor(param, op, rest, metadataOperand) });
      }
      continue;
    }
    const fld = Object.hasOwn(resource.filters, param) ? resource.filters[param] : undefined;
    if (!fld)
      throw fail(
        param,
        Object.hasOwn(resource.fields, param)
          ? `Attribute "${param}" is not filterable`
          : `Unknown attribute "${param}" on ${resource.name}`,
      );
    for (const raw of raws) {
      const { op, rest } = splitOperator(raw);
      if ((op === 'like' || op === 'contains') && !TEXT_KINDS.has(fld.kind))
        throw fail(param, `${op} applies to text attributes only`);
      if (['gt', 'gte', 'lt', 'lte', 'between'].includes(op) && !ORDERED_KINDS.has(fld.kind))
        throw fail(param, `${op} does not apply to ${fld.kind} attributes`);
      if ((op === 'null' || op === 'not-null') && !fld.nullable) throw fail(param, `${param} is never null`);
      const read = fld.operand;
      const parse =
        op === 'like' || op === 'contains'
          ? (s: string) => s
          : read
            ? (s: string) => read(s, region)
            : (s: string) => parseOperand(param, fld, s);
      filters.push({ kind: 'field', attribute: param, field: fld, op, values: operandsFor(param, op, rest, parse) });
    }
  }
  return filters;
}

/**
 * `sort=a,b:desc` sorts both by a and b descending; `sort=a:asc,b:desc` gives each its own direction.
 * A direction after the last attribute applies to the attributes before it that carry none.
 */
export function parseSort(resource: Resource, raw: string | string[] | undefined): SortKey[] {
  if (raw === undefined || raw === '') return [];
  if (Array.isArray(raw)) throw fail('sort', 'sort may be given once');
  const keys: SortKey[] = [];
  let pending: string[] = [];
  for (const part of raw.split(',')) {
    const [attribute, dir, extra] = part.split(':');
    if (extra !== undefined || (dir !== undefined && dir !== 'asc' && dir !== 'desc'))
      throw fail('sort', `Invalid sort "${part}": use attr[:asc|desc]`);
    const fld = Object.hasOwn(resource.fields, attribute) ? resource.fields[attribute] : undefined;
    if (!fld) throw fail('sort', `Unknown attribute "${attribute}" on ${resource.name}`);
    if (!fld.sortable) throw fail('sort', `Attribute "${attribute}" is not sortable`);
    if (keys.some((k) => k.attribute === attribute) || pending.includes(attribute))
      throw fail('sort', `Attribute "${attribute}" appears twice`);
    pending.push(attribute);
    if (dir) {
      keys.push(...pending.map((a) => ({ attribute: a, desc: dir === 'desc' })));
      pending = [];
    }
  }
  keys.push(...pending.map((a) => ({ attribute: a, desc: false })));
  return keys;
}

export const RANGE_OPERATORS: ReadonlySet<Operator> = new Set(['gt', 'gte', 'lt', 'lte', 'between']);

/** The default order, as /schema, OpenAPI and MCP state it. */
export const DEFAULT_ORDER =
  `Default id:asc; with a range filter (${[...RANGE_OPERATORS].join(', ')}) on a sortable attribute and no sort, ` +
  'that attribute ascending (the first such attribute in the resource’s attribute order), then id.';

/**
 * A list asked a range on a sortable attribute and no sort is read in that attribute's order: the index
 * that bounds the range then yields the page, whatever the clinic's size. In id order the rows of a recent
 * range sit at the far end of the id index (ids follow time), and a page walked 1.5M rows to find them.
 */
export function rangeOrder(resource: Resource, filters: Filter[]): SortKey[] {
  const ranged = new Set(
    filters.flatMap((f) => (f.kind === 'field' && RANGE_OPERATORS.has(f.op) ? [f.attribute] : [])),
  );
  const attribute = Object.keys(resource.fields).find(
    (a) => a !== 'id' && ranged.has(a) && resource.fields[a].sortable,
  );
  return attribute ? [{ attribute, desc: false }] : [];
}
