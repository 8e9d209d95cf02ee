import { z } from 'zod';
import { getTableColumns, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { formatMoney } from '../values/money';
import type { Field } from './fields';

export type WriteOperation = 'create' | 'update' | 'delete';
export type Row = Record<string, unknown>;
type AnyTable = PgTable & { id: PgColumn; account_id: PgColumn };

export interface ResourceAction {
  summary: string;
  description: string;
  input: z.ZodObject;
}

export interface ResourceOptions<F extends Record<string, Field>> {
  name: string;
  /** The name of one record in prose (patients → patient, addresses → address): declared, not guessed. */
  singular: string;
  description: string;
  table: AnyTable;
  fields: F;
  read?: boolean;
  list?: boolean;
  write?: readonly WriteOperation[];
  /** What DELETE means, for /schema and the docs. */
  deleteSemantics?: string;
  /** SQLite FTS5 trigram table (rowid = record id) indexing the attributes marked searchable. */
  searchTable?: string;
  /** Always-on condition besides the tenant (e.g. soft-deleted rows are gone). */
  scope?: (table: AnyTable) => SQL;
  /** Computed columns selected with every row (e.g. embedded records built by the database). */
  extraColumns?: () => Record<string, SQL>;
  /** Attributes computed from a stored row, for those the row does not hold as-is. */
  compute?: (row: Row) => Partial<Record<keyof F, unknown>>;
  /** State changes served as POST /{resource}/{id}/{action}, each with its own body. */
  actions?: Record<string, ResourceAction>;
  /** Input rules besides the per-field ones, stated in /schema (e.g. fields that go together). */
  rules?: Partial<Record<WriteOperation, string[]>>;
}

export interface Resource<F extends Record<string, Field> = Record<string, Field>> extends ResourceOptions<F> {
  read: boolean;
  list: boolean;
  write: readonly WriteOperation[];
  readSchema: z.ZodObject;
  createInput: z.ZodObject;
  updateInput: z.ZodObject;
  /** What every read selects: the table's columns, plus extraColumns. Undefined: the plain table. */
  selection(): Record<string, PgColumn | SQL> | undefined;
  /** Column of the table behind an attribute, or undefined for computed ones. */
  column(attribute: string): PgColumn | undefined;
  toRecord(row: Row): Record<string, unknown>;
}

export function defineResource<F extends Record<string, Field>>(opts: ResourceOptions<F>): Resource<F> {
  const entries = Object.entries(opts.fields);
  const writable = entries.filter(([, fld]) => fld.write && fld.input);
  const readSchema = z.object(Object.fromEntries(entries.map(([k, fld]) => [k, fld.read])));
  const createInput = z.strictObject(
    Object.fromEntries(writable.map(([k, fld]) => [k, fld.write === 'required' ? fld.input! : fld.input!.optional()])),
  );
  const updateInput = z.strictObject(Object.fromEntries(writable.map(([k, fld]) => [k, fld.input!.optional()])));
  const columns = new Map<string, PgColumn>();
  for (const [k, fld] of entries) {
    if (fld.column === false) continue;
    const col = (opts.table as unknown as Record<string, PgColumn>)[fld.column ?? k];
    if (!col) throw new Error(`${opts.name}.${k}: table has no column ${fld.column ?? k}`);
    columns.set(k, col);
  }
  // Computed attributes are read from the row under their own name (put there by a loader) unless `compute` gives them.
  const stored = entries.map(([k, fld]) => [k, fld.column || k, fld.kind === 'money'] as const);
  const toRecord = (row: Row) => {
    const out: Record<string, unknown> = {};
    for (const [k, col, money] of stored) out[k] = row[col] == null ? null : money ? formatMoney(row[col] as number) : row[col];
    if (opts.compute) Object.assign(out, opts.compute(row));
    return out;
  };
  let selection: Record<string, PgColumn | SQL> | undefined;
  return {
    ...opts,
    selection: () => (opts.extraColumns ? (selection ??= { ...getTableColumns(opts.table), ...opts.extraColumns() }) : undefined),
    read: opts.read ?? true,
    list: opts.list ?? true,
    write: opts.write ?? [],
    readSchema,
    createInput,
    updateInput,
    column: (a) => columns.get(a),
    toRecord,
  };
}
