/** GET /schema and /schema/{resource}: the declarations, as data. */
import { z } from 'zod';
import { OFFSET_COST, PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../list/engine';
import { DEFAULT_ORDER, RANGE_OPERATORS } from '../list/grammar';
import { SCAN_LIMIT, scanningOperators } from '../list/scans';
import type { EverydayQuestion, Resource } from './define';
import { GROUP_LABELS, GROUP_NAMES, KEY_GROUPS, scopeOf, type KeyGroup } from '../auth/key-groups';
import type { Field, FieldKind } from './fields';
import {
  AVAILABILITY_DESCRIPTION,
  AVAILABILITY_PERMISSION,
  AVAILABILITY_RULES,
  availabilityOutput,
  availabilityQuery,
} from './availability';
import { EVENT_DESCRIPTIONS } from '../events/catalogue';
import { events } from './events';
import { PLANNED, RESOURCES } from './index';

const OPERATORS_BY_KIND: Record<FieldKind, string[]> = {
  integer: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not-in', 'between'],
  decimal: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not-in', 'between'],
  timestamp: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not-in', 'between'],
  date: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not-in', 'between'],
  money: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not-in', 'between'],
  walltime: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not-in', 'between'],
  string: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'contains', 'in', 'not-in', 'between'],
  enum: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'contains', 'in', 'not-in', 'between'],
  boolean: ['eq', 'ne', 'in', 'not-in'],
  object: [],
  array: [],
  metadata: [],
};

/** The operators a filter on this attribute takes (null and not-null where it can be null). */
export const filterOperators = (f: Field): string[] => [
  ...OPERATORS_BY_KIND[f.kind],
  ...(f.nullable ? ['null', 'not-null'] : []),
];

/** An everyday question as the query an integrator sends (`practitioner_id=eq:…&starts_at=between:…,…`). */
export const everydayQuery = (q: EverydayQuestion): string =>
  [...q.eq.map((a) => `${a}=eq:…`), `${q.range}=between:…,…`].join('&');

/** The sentence OpenAPI's list operations carry about their everyday questions. */
export function everydaySentence(r: Resource): string {
  const qs = r.everyday ?? [];
  if (!qs.length) return '';
  return ` Served by one index each, in the range's order (a range's default order; also with ${[...RANGE_OPERATORS].filter((op) => op !== 'between').join(', ')}): ${qs
    .map((q) => `${q.asked} (${everydayQuery(q)})`)
    .join('; ')}.`;
}

/** The attributes a list sorts by (`sort=`), in declaration order. */
export const sortableAttributes = (r: Resource): string[] =>
  Object.entries(r.fields)
    .filter(([, f]) => f.sortable)
    .map(([k]) => k);

/** Whether a list takes `metadata[key]` filters: the resource has metadata (server/list/grammar.ts). */
export const hasMetadata = (r: Resource): boolean => Object.hasOwn(r.fields, 'metadata');

export function operationsOf(r: Resource): string[] {
  return [...(r.list ? ['list'] : []), ...(r.read ? ['read'] : []), ...r.write];
}

export function schemaIndex() {
  const served = Object.values(RESOURCES).map((r) => ({
    name: r.name,
    description: r.description,
    available: true,
    operations: operationsOf(r),
    href: `/schema/${r.name}` as string | null,
    key_permission: r.permission as string | null,
  }));
  const searches = [
    {
      name: 'availability',
      description: AVAILABILITY_DESCRIPTION,
      available: true,
      operations: ['search'],
      href: '/schema/availability' as string | null,
      key_permission: AVAILABILITY_PERMISSION as string | null,
    },
  ];
  const planned = Object.entries(PLANNED).map(([name, description]) => ({
    name,
    description,
    available: false,
    operations: [],
    href: null,
    key_permission: null,
  }));
  return [...served, ...searches, ...planned].sort((a, b) => a.name.localeCompare(b.name));
}

/** GET /availability is a search, not a collection: its query parameters, response and rules. */
function describeAvailability() {
  return {
    name: 'availability',
    description: AVAILABILITY_DESCRIPTION,
    operations: ['search'],
    write_operations: [],
    key_permission: groupPermission(AVAILABILITY_PERMISSION, false),
    path: '/availability',
    query: z.toJSONSchema(availabilityQuery, { io: 'input', unrepresentable: 'any' }),
    response: z.toJSONSchema(availabilityOutput, { unrepresentable: 'any' }),
    rules: AVAILABILITY_RULES,
  };
}

export function describeResource(name: string) {
  if (name === 'availability') return describeAvailability();
  const r = Object.hasOwn(RESOURCES, name) ? RESOURCES[name] : undefined;
  if (!r) return undefined;
  const attributes = Object.fromEntries(
    Object.entries(r.fields).map(([k, f]) => [
      k,
      {
        type: f.kind,
        nullable: f.nullable,
        ...(f.maxLength ? { max_length: f.maxLength } : {}),
        ...(f.values ? { enum: f.values } : {}),
        filterable: f.filterable,
        sortable: f.sortable,
        ...(f.filterable
          ? { operators: filterOperators(f), scans: scanningOperators(r, k, f, filterOperators(f)) }
          : {}),
        writable: f.write ?? false,
        ...(f.description ? { description: f.description } : {}),
        // { since, sunset?, use?, note }: still served; requests that use it are answered with Deprecation headers.
        ...(f.deprecated ? { deprecated: f.deprecated } : {}),
      },
    ]),
  );
  const input = (op: 'create' | 'update') => ({
    required:
      op === 'create'
        ? Object.entries(r.fields)
            .filter(([, f]) => f.write === 'required')
            .map(([k]) => k)
        : [],
    optional: Object.entries(r.fields)
      .filter(([, f]) => f.write && (op === 'update' || f.write === 'optional'))
      .map(([k]) => k),
    unknown_attributes: 'rejected (422 validation_failed)',
    rules: r.rules?.[op] ?? [],
    json_schema: z.toJSONSchema(op === 'create' ? r.createInput : r.updateInput, {
      io: 'input',
      unrepresentable: 'any',
    }),
  });
  return {
    name: r.name,
    description: r.description,
    operations: operationsOf(r),
    write_operations: r.write,
    key_permission: groupPermission(r.permission, r.write.length > 0 || r.actions !== undefined),
    ...(r.deleteSemantics ? { delete_semantics: r.deleteSemantics } : {}),
    // The feed's types, each with when it is sent, whether an operation fires it today (and, when none does, why), and an example.
    ...(r === events ? { event_types: EVENT_DESCRIPTIONS } : {}),
    ...(r.actions
      ? {
          actions: Object.fromEntries(
            Object.entries(r.actions).map(([name, a]) => [
              name,
              {
                method: 'POST',
                path: `/${r.name}/{id}/${name}`,
                summary: a.summary,
                description: a.description,
                json_schema: z.toJSONSchema(a.input, { io: 'input', unrepresentable: 'any' }),
              },
            ]),
          ),
        }
      : {}),
    attributes,
    filtering: {
      syntax: '?attribute=operator:value; metadata[key]=operator:value (numeric operands compare numerically)',
      filterable: Object.keys(r.filters),
      // The combinations read through one index in the range's order, whatever the clinic's size.
      ...(r.everyday ? { everyday: r.everyday.map((q) => ({ asked: q.asked, query: everydayQuery(q) })) } : {}),
      ...(r.filterOnly
        ? {
            filter_only: Object.fromEntries(
              Object.entries(r.filterOnly).map(([k, f]) => [
                k,
                {
                  type: f.kind,
                  operators: filterOperators(f),
                  scans: scanningOperators(r, k, f, filterOperators(f)),
                  ...(f.description ? { description: f.description } : {}),
                  ...(f.deprecated ? { deprecated: f.deprecated } : {}),
                },
              ]),
            ),
          }
        : {}),
      metadata: hasMetadata(r),
      // Per attribute, `scans` lists the operators no index serves (metadata filters always scan): server/list/scans.ts.
      scans: `Operators listed under an attribute's "scans" (and metadata filters) read every one of the clinic's rows; a list whose filters all scan is refused (422 invalid_input) on clinics with more than ${SCAN_LIMIT.rows.toLocaleString('en')} of these records.`,
    },
    sorting: {
      syntax: 'sort=attr[:asc|desc][,attr[:asc|desc]]',
      sortable: sortableAttributes(r),
      default: 'id:asc',
      default_with_range: DEFAULT_ORDER,
      tiebreaker: 'id',
    },
    paging: {
      page: `1..${PAGE_MAX} (clamped)`,
      page_size: `1..${PAGE_SIZE_MAX}, default ${PAGE_SIZE_DEFAULT}`,
      cursor: 'keyset; send empty to start',
      offset_cost: OFFSET_COST,
      counted_offsets: !!r.countedOffsets,
    },
    input_rules: {
      ...(r.write.includes('create') ? { create: input('create') } : {}),
      ...(r.write.includes('update') ? { update: input('update') } : {}),
    },
  };
}

/** What a restricted key needs for a resource or search: its group's read for GET, its write for the rest (`writes`). */
function groupPermission(group: KeyGroup | 'feed', writes: boolean) {
  if (group === 'feed')
    return {
      group: 'feed',
      read: 'any group: a restricted key reads the entries of the resources its groups may read',
    };
  return {
    group,
    description: KEY_GROUPS[group],
    read: scopeOf(group, 'read'),
    ...(writes ? { write: scopeOf(group, 'write') } : {}),
  };
}

/** The groups of restricted keys, for GET /schema. */
export const keyGroups = () =>
  GROUP_NAMES.map((g) => ({ name: g, label: GROUP_LABELS[g], description: KEY_GROUPS[g] }));
