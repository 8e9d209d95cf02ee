/**
 * Query parameters as generated clients need them, from the resource declarations: paging, `sort` with
 * the sortable attributes, one repeatable filter per filterable attribute (sent `id=gt:1&id=lt:10`, the
 * form style openapi-fetch and most generators use for arrays), and `metadata` as a deepObject
 * (`metadata[vip]=eq:true`) where the resource has metadata.
 */
import { OFFSET_COST, PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../../list/engine';
import { DEFAULT_ORDER, OPERATORS } from '../../list/grammar';
import { scanningOperators, scanRefusal, scanSentence } from '../../list/scans';
import type { Resource } from '../../resources/define';
import { deprecationText } from '../../resources/deprecation';
import { filterOperators, hasMetadata, sortableAttributes } from '../../resources/describe';
import type { Field } from '../../resources/fields';
import type { Json } from './operation';

/** A filter value that shows the grammar for this kind of attribute. */
function filterExample(f: Field): string {
  switch (f.kind) {
    case 'integer':
      return 'gt:100';
    case 'decimal':
    case 'money':
      return 'gte:10.00';
    case 'timestamp':
      return 'gte:2027-01-01T00:00:00Z';
    case 'date':
      return 'between:2027-01-01,2027-01-31';
    case 'walltime':
      return 'gte:2027-01-11T09:00:00';
    case 'boolean':
      return 'true';
    case 'enum':
      return `in:${(f.values ?? []).slice(0, 2).join(',')}`;
    default:
      return 'contains:smi';
  }
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `sort`: sortable attributes, each with an optional direction, comma-separated (server/list/grammar.ts). */
function sortParameter(resource: Resource): Json {
  const names = sortableAttributes(resource);
  const deprecated = names.flatMap((n) => {
    const d = resource.fields[n].deprecated;
    return d ? [`${n} (${deprecationText(d)})`] : [];
  });
  const key = `(?:${names.map(escape).join('|')})(?::(?:asc|desc))?`;
  return {
    name: 'sort',
    in: 'query',
    required: false,
    description:
      `Sort by ${names.join(', ')}: attr[:asc|desc][,attr[:asc|desc]]; a direction after the last attribute applies to those before it ` +
      `that carry none. ${DEFAULT_ORDER} id is always the final tiebreaker. Any other attribute is 422.` +
      (deprecated.length ? ` Deprecated: ${deprecated.join('; ')}` : ''),
    schema: { type: 'string', pattern: `^${key}(?:,${key})*$` },
    example: `${names.at(-1)}:desc`,
  };
}

function filterParameter(resource: Resource, name: string, f: Field): Json {
  const example = filterExample(f);
  const scans = scanningOperators(resource, name, f, filterOperators(f));
  return {
    name,
    in: 'query',
    required: false,
    ...(f.deprecated ? { deprecated: true } : {}),
    description:
      (f.deprecated ? `${deprecationText(f.deprecated)} ` : '') +
      `Filter on ${name} (${f.kind}${f.nullable ? ', nullable' : ''}): operator:value with one of ${filterOperators(f).join(', ')}; ` +
      `a value with no operator is eq. Repeat the parameter to AND conditions (${name}=${example}&${name}=…).` +
      (scans.length ? ` ${scanSentence(scans)}` : ''),
    // The operators no index serves (server/list/scans.ts), as /schema's `scans` lists them.
    'x-scans': scans,
    style: 'form',
    explode: true,
    schema: { type: 'array', items: { type: 'string' } },
    example: [example],
  };
}

const metadataParameter: Json = {
  name: 'metadata',
  in: 'query',
  required: false,
  description: `Filters on metadata keys, sent as metadata[key]=operator:value (deepObject); numeric operands compare numerically. Metadata filters scan the clinic's rows (no index serves them): ${scanRefusal()}`,
  'x-scans': [...OPERATORS],
  style: 'deepObject',
  explode: true,
  schema: { type: 'object', additionalProperties: { type: 'string' } },
  example: { crm_id: 'eq:A-1001' },
};

/** Every query parameter of a resource's list, from its declaration. */
export function listParameters(resource: Resource): Json[] {
  return [
    {
      name: 'page',
      in: 'query',
      required: false,
      description: `Offset paging: the page to serve, from 1. Pages past ${PAGE_MAX} are clamped to ${PAGE_MAX}, and meta.current_page says which page was served. ${OFFSET_COST}`,
      schema: { type: 'integer', minimum: 1, default: 1 },
    },
    {
      name: 'page_size',
      in: 'query',
      required: false,
      description: `Records per page (offset or cursor paging), at most ${PAGE_SIZE_MAX}.`,
      schema: { type: 'integer', minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT },
    },
    {
      name: 'cursor',
      in: 'query',
      required: false,
      description:
        'Keyset paging: send it empty for the first page, then the token from links.next. Bound to the filters, sort and page_size it was issued for (422 otherwise); not combined with page.',
      schema: { type: 'string' },
    },
    sortParameter(resource),
    ...Object.entries(resource.filters).map(([name, f]) => filterParameter(resource, name, f)),
    ...(hasMetadata(resource) ? [metadataParameter] : []),
  ];
}

/** A query flag the server reads as the text true or false is a boolean to clients: that is how they send one. */
export function booleanFlags(parameters: Json[]): void {
  for (const p of parameters) {
    const s = p.schema as Json | undefined;
    if (p.in === 'query' && s?.type === 'string' && JSON.stringify(s.enum) === '["true","false"]')
      p.schema = { type: 'boolean' };
  }
}
