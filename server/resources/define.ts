import { z } from 'zod';
import { and, getTableColumns, getTableName, type Placeholder, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { embedColumn, type Embed } from '../../db/json';
import type { KeyGroup, RoutePermission } from '../auth/key-groups';
import { formatMoney, parseMoney } from '../values/money';
import type { Field, WriteMode } from './fields';
import { mergedMetadataOrFail, type Metadata, type MetadataPatch } from './metadata';
import { followRule, liveParentCondition, type Follows } from './follows';
import type { Feed } from '../list/feed';

export type WriteOperation = 'create' | 'update' | 'delete';
/** The permission areas of records (server/auth/permissions.ts: patients.read, appointments.read, billing.read). */
export type RecordArea = 'patients' | 'appointments' | 'billing';
/** A stored row of no particular resource (the list engine, generic writes). */
export type Row = Record<string, unknown>;
export type AnyTable = PgTable & { id: PgColumn; account_id: PgColumn };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a field of any value types: the widest Field
type AnyField = Field<any, any, WriteMode | undefined, WriteMode | undefined>;
export type Fields = Record<string, AnyField>;
/** Records embedded in a read, by the name the row holds them under (db/json.ts). */
export type Embeds = Record<string, Embed>;

type ReadValue<Fl> = Fl extends Field<infer R, infer _I, infer _W> ? R : never;
type InputValue<Fl> = Fl extends Field<infer _R, infer I, infer _W> ? I : never;
type WrittenKeys<F extends Fields> = { [K in keyof F]: F[K]['write'] extends WriteMode ? K : never }[keyof F];
type CreateShape<F extends Fields> = {
  [K in WrittenKeys<F>]: F[K]['write'] extends 'required'
    ? z.ZodType<InputValue<F[K]>>
    : z.ZodOptional<z.ZodType<InputValue<F[K]>>>;
};
type UpdateShape<F extends Fields> = { [K in WrittenKeys<F>]: z.ZodOptional<z.ZodType<InputValue<F[K]>>> };
type StaffKeys<F extends Fields> = { [K in keyof F]: F[K]['staff'] extends WriteMode ? K : never }[keyof F];
type StaffCreateShape<F extends Fields> = {
  [K in StaffKeys<F>]: F[K]['staff'] extends 'required'
    ? z.ZodType<InputValue<F[K]>>
    : z.ZodOptional<z.ZodType<InputValue<F[K]>>>;
};
type StaffUpdateShape<F extends Fields> = { [K in StaffKeys<F>]: z.ZodOptional<z.ZodType<InputValue<F[K]>>> };

/** A record as the API reads it: each declared attribute with its read type. */
export type RecordOf<F extends Fields> = { [K in keyof F]: ReadValue<F[K]> };
/** A stored row as read for a resource: the table's columns and the embedded records (JSON: fromDbJson). */
export type RowOf<T extends AnyTable, E extends Embeds> = T['$inferSelect'] & { [K in keyof E]: unknown };

export interface ResourceAction {
  summary: string;
  description: string;
  input: z.ZodObject;
}

export interface ResourceOptions<F extends Fields, T extends AnyTable, E extends Embeds> {
  name: string;
  /** The name of one record in prose (patients → patient, addresses → address): declared, not guessed. */
  singular: string;
  description: string;
  /**
   * The group a restricted key needs for these records (server/auth/key-permissions.ts): its read for
   * GET, its write for the rest; `feed` for a feed of every group's changes.
   */
  permission: Exclude<RoutePermission, 'none'>;
  /** Embeds of another group's records: left null for a restricted key that may not read that group. */
  embedPermissions?: { [K in keyof E]?: KeyGroup };
  /**
   * Whose records these are, for team members' roles: reading them needs `${area}.read` (AI connectors
   * act as a member). Absent: reference data every member may read.
   */
  area?: RecordArea;
  table: T;
  fields: F;
  read?: boolean;
  list?: boolean;
  write?: readonly WriteOperation[];
  /** What DELETE means, for /schema and the docs. */
  deleteSemantics?: string;
  /** SQLite FTS5 trigram table (rowid = record id) indexing the attributes marked searchable. */
  searchTable?: string;
  /** Always-on condition besides the tenant (e.g. soft-deleted rows are gone). */
  scope?(table: T): SQL;
  /**
   * The record these belong to (follows.ts): hidden while it is soft-removed (added to `scope` and said
   * in the description), announced and tombstoned with its delete or void (server/domain/cascade.ts).
   */
  follows?: Follows;
  /**
   * A feed (events): read in the order of commit and resumed by its cursor without missing a row; its
   * last cursor page links where to resume, and `wait=` holds an empty last page (server/list/feed.ts).
   */
  feed?: Feed;
  /** Records read with every row: selected with it for one record, loaded per page for a list. */
  embeds?: E;
  /** Attributes computed from a stored row, for those the row does not hold as-is. */
  compute?(row: RowOf<T, E>): Partial<RecordOf<F>>;
  /** State changes served as POST /{resource}/{id}/{action}, each with its own body. */
  actions?: Record<string, ResourceAction>;
  /** Input rules besides the per-field ones, stated in /schema (e.g. fields that go together). */
  rules?: Partial<Record<WriteOperation, string[]>>;
  /**
   * Filters on stored columns the record shows in another shape, by parameter name (events: `data.entity`
   * is the `entity` column, read inside `data`). Filterable like fields; never read as attributes.
   */
  filterOnly?: Fields;
  /**
   * The filter combinations integrators ask every day (issue 41), each read through one index that bounds
   * the range and yields its order (a range's default order): the attributes compared with `eq`, then the
   * ranged attribute. Stated in /schema and OpenAPI; list.everyday-plans.test.ts proves each plan on both
   * databases and the index beside the table in db/schema.
   */
  everyday?: readonly EverydayQuestion[];
  /**
   * Its table keeps how many live rows each range of ids holds (the triggers of migration 0044, which
   * count the rows `scope` keeps: `deleted_at` null), so a deep offset page in the default order starts
   * where its rows are (server/list/offsets.ts). For the lists a big clinic pages through far.
   */
  countedOffsets?: true;
}

export interface EverydayQuestion {
  /** What is asked, as an integrator says it. */
  asked: string;
  eq: readonly string[];
  range: string;
}

/**
 * A declared resource. Its type parameters carry the declaration's static types: `CreateInput<R>`,
 * `UpdateInput<R>`, `RecordOf`, and the row `findRow`/`getRow` return (`RowType<R>`).
 */
export interface Resource<
  F extends Fields = Fields,
  T extends AnyTable = AnyTable,
  E extends Embeds = Embeds,
> extends ResourceOptions<F, T, E> {
  read: boolean;
  list: boolean;
  write: readonly WriteOperation[];
  readSchema: z.ZodObject<{ [K in keyof F]: z.ZodType<ReadValue<F[K]>> }>;
  createInput: z.ZodObject<CreateShape<F>, z.core.$strict>;
  updateInput: z.ZodObject<UpdateShape<F>, z.core.$strict>;
  /** What staff send to create or change one in the portal: the fields declared `staff` (empty for most resources). */
  staffCreateInput: z.ZodObject<StaffCreateShape<F>, z.core.$strict>;
  staffUpdateInput: z.ZodObject<StaffUpdateShape<F>, z.core.$strict>;
  /** Its scope joins a soft-removed ancestor (follows.ts): hidden while the ancestor is gone. */
  joinsAncestor: boolean;
  /** The table's columns: what a list page selects (its embeds are loaded for the page at once). */
  columns: Record<string, PgColumn>;
  /** What a read of one record selects: the table's columns and each embed as a subquery. */
  /** The columns and embeds; `account`: the clinic read (a value or its placeholder), bound in the embeds too (db/json.ts). */
  selection(account: number | Placeholder): Record<string, PgColumn | SQL>;
  /** Column of the table behind an attribute (or a filter-only parameter), or undefined for computed ones. */
  column(attribute: string): PgColumn | undefined;
  /** Every filter parameter and its field: the filterable attributes, then the filter-only ones. */
  filters: Readonly<Record<string, AnyField>>;
  toRecord(row: RowOf<T, E>): RecordOf<F>;
}

/** Any declared resource, whatever its fields (the list engine, /schema, OpenAPI). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the widest resource: every declaration is one
export type AnyResource = Resource<any, any, any>;
export type CreateInput<R extends AnyResource> = z.output<R['createInput']>;
export type UpdateInput<R extends AnyResource> = z.output<R['updateInput']>;
export type StaffCreateInput<R extends AnyResource> = z.output<R['staffCreateInput']>;
export type StaffUpdateInput<R extends AnyResource> = z.output<R['staffUpdateInput']>;
export type RowType<R extends AnyResource> = Parameters<R['toRecord']>[0];
export type RecordType<R extends AnyResource> = ReturnType<R['toRecord']>;

/**
 * A row's record, typed for a resource given as a type parameter: inside a generic function TypeScript
 * reads `toRecord` through the widest resource and returns an untyped record; the record is the
 * resource's own, so this one narrowing serves every generic caller.
 */
export const recordOf = <R extends AnyResource>(resource: R, row: RowType<R>): RecordType<R> =>
  resource.toRecord(row) as RecordType<R>;

export function defineResource<F extends Fields, T extends AnyTable, E extends Embeds = Record<never, Embed>>(
  opts: ResourceOptions<F, T, E>,
): Resource<F, T, E> {
  const entries = Object.entries(opts.fields);
  const writable = entries.filter(([, fld]) => fld.write && fld.input);
  const readSchema = z.object(Object.fromEntries(entries.map(([k, fld]) => [k, fld.read])));
  const createInput = z.strictObject(
    Object.fromEntries(writable.map(([k, fld]) => [k, fld.write === 'required' ? fld.input! : fld.input!.optional()])),
  );
  const updateInput = z.strictObject(Object.fromEntries(writable.map(([k, fld]) => [k, fld.input!.optional()])));
  const staffWritable = entries.filter(([, fld]) => fld.staff && fld.input);
  const staffCreateInput = z.strictObject(
    Object.fromEntries(
      staffWritable.map(([k, fld]) => [k, fld.staff === 'required' ? fld.input! : fld.input!.optional()]),
    ),
  );
  const staffUpdateInput = z.strictObject(
    Object.fromEntries(staffWritable.map(([k, fld]) => [k, fld.input!.optional()])),
  );
  const columns = new Map<string, PgColumn>();
  const filterOnly = Object.entries(opts.filterOnly ?? {});
  for (const [k, fld] of [...entries, ...filterOnly]) {
    if (fld.column === false) continue;
    const col = (opts.table as unknown as Record<string, PgColumn>)[fld.column ?? k];
    if (!col) throw new Error(`${opts.name}.${k}: table has no column ${fld.column ?? k}`);
    columns.set(k, col);
  }
  // Computed attributes are read from the row under their own name (put there by a loader) unless `compute` gives them.
  const stored = entries.map(([k, fld]) => [k, fld.column || k, fld.kind === 'money'] as const);
  const toRecord = (row: RowOf<T, E>) => {
    const values = row as Row;
    const out: Row = {};
    for (const [k, col, money] of stored)
      out[k] = values[col] == null ? null : money ? formatMoney(values[col] as number) : values[col];
    if (opts.compute) Object.assign(out, opts.compute(row));
    return out as RecordOf<F>;
  };
  for (const q of opts.everyday ?? []) {
    const bad = [
      ...q.eq.filter((a) => !opts.fields[a]?.filterable),
      ...(opts.fields[q.range]?.sortable ? [] : [q.range]),
    ];
    if (bad.length)
      throw new Error(
        `${opts.name}: everyday "${q.asked}" names ${bad.join(', ')}, not filterable (or the range not sortable)`,
      );
  }
  const tableColumns = getTableColumns(opts.table) as Record<string, PgColumn>;
  const selectionOf = (account: number | Placeholder): Record<string, PgColumn | SQL> => ({
    ...tableColumns,
    ...Object.fromEntries(
      Object.entries(opts.embeds ?? {}).map(([k, e]) => [k, embedColumn(getTableName(opts.table), e, account)]),
    ),
  });
  // One selection per placeholder's name, kept: prepared statements and the list engine's decoders are
  // kept per selection. One for a value is made for its query (a read inside a transaction).
  const byPlaceholder = new Map<string, Record<string, PgColumn | SQL>>();
  const selectionFor = (account: number | Placeholder): Record<string, PgColumn | SQL> => {
    if (typeof account === 'number') return selectionOf(account);
    let known = byPlaceholder.get(account.name);
    if (!known) byPlaceholder.set(account.name, (known = selectionOf(account)));
    return known;
  };
  const liveParent = opts.follows && liveParentCondition(getTableName(opts.table), opts.follows);
  const ownScope = opts.scope;
  const scope = liveParent ? (table: T) => (ownScope ? and(ownScope(table), liveParent)! : liveParent) : ownScope;
  return {
    ...opts,
    description: opts.follows ? `${opts.description} ${followRule(opts.follows)}` : opts.description,
    scope,
    joinsAncestor: !!liveParent,
    columns: tableColumns,
    selection: selectionFor,
    read: opts.read ?? true,
    list: opts.list ?? true,
    write: opts.write ?? [],
    // The schemas are built from the fields exactly as the mapped types above describe them.
    readSchema: readSchema as unknown as Resource<F, T, E>['readSchema'],
    createInput: createInput as unknown as Resource<F, T, E>['createInput'],
    updateInput: updateInput as unknown as Resource<F, T, E>['updateInput'],
    staffCreateInput: staffCreateInput as unknown as Resource<F, T, E>['staffCreateInput'],
    staffUpdateInput: staffUpdateInput as unknown as Resource<F, T, E>['staffUpdateInput'],
    column: (a) => columns.get(a),
    filters: Object.fromEntries([...entries.filter(([, fld]) => fld.filterable), ...filterOnly]),
    toRecord,
  };
}

/**
 * The table values an input sets: every writable attribute stored in the resource's own table (money
 * converted to minor units in its column). Computed attributes (column: false) are the domain's to
 * write. Derived from the declaration, so a declared field cannot be accepted by validation and then
 * dropped by the write. Metadata merges into `before`'s (the stored row; null on create, where it
 * starts empty); without `before` it is left to the caller. `by`: whose fields (the API's `write`, or
 * staff's `staff` in the portal).
 */
export function storedValues<R extends AnyResource>(
  resource: R,
  input: Partial<UpdateInput<R>> | Partial<StaffUpdateInput<R>>,
  before?: RowType<R> | null,
  by: 'api' | 'staff' = 'api',
): Partial<R['table']['$inferInsert']> {
  const values: Row = {};
  for (const [k, fld] of Object.entries(resource.fields as Fields)) {
    const v = (input as Row)[k];
    if (fld.kind === 'metadata') {
      if (before !== undefined && (before === null || v !== undefined))
        values[k] = mergedMetadataOrFail(before ? ((before as Row)[k] as Metadata) : {}, v as MetadataPatch);
      continue;
    }
    if (!(by === 'staff' ? fld.staff : fld.write) || fld.column === false || v === undefined) continue;
    values[fld.column ?? k] = fld.kind === 'money' && v !== null ? parseMoney(v as string) : v;
  }
  return values as Partial<R['table']['$inferInsert']>;
}

/** The create schema of a resource, typed by its input (for code generic over resources). */
export const createSchema = <R extends AnyResource>(resource: R) =>
  resource.createInput as unknown as z.ZodType<CreateInput<R>>;
/** The update schema of a resource, typed by its input (for code generic over resources). */
export const updateSchema = <R extends AnyResource>(resource: R) =>
  resource.updateInput as unknown as z.ZodType<UpdateInput<R>>;
