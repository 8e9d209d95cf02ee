/**
 * Field builders for resource declarations. A field says, once, what an attribute is: its type,
 * whether it is nullable, its limits, whether it can be filtered and sorted, and how it is written.
 * From these the read schema, the write schemas, the list engine, /schema, OpenAPI and MCP are derived,
 * and so are the static types: a field's read and write value types follow from its builder and options.
 */
import { z } from 'zod';
import type { Metadata } from '../../db/dialect';
import { MONEY_PATTERN, parseMoney } from '../values/money';
import { calendarDay, calendarTimestamp } from '../values/calendar';
import { isWallTime, WALL_TIME } from '../values/wall-time';
import type { Deprecation } from './deprecation';
import { METADATA_MAX_KEYS, metadataInput, metadataRead, type MetadataPatch } from './metadata';

/** Integer columns (counts, amounts in units) are 32-bit on PostgreSQL: a larger value is a 422, not a database error. */
export const INT_MAX = 2_147_483_647;
/**
 * Ids and references are bigint on PostgreSQL (64-bit on SQLite) and JSON numbers in the API, exact up to
 * 2^53 − 1: a larger id is a 422, never a rounded number.
 */
export const ID_MAX = Number.MAX_SAFE_INTEGER;
/** A record's id as input anywhere (REST, portal, MCP): positive, at most ID_MAX. */
export const recordId = z.number().int().min(1).max(ID_MAX);

const WALL_TIME_RULE = 'a clinic wall time YYYY-MM-DDTHH:MM:SS in the account timezone, with no zone suffix';
/** The shape of a wall time for JSON Schema (OpenAPI, /schema, MCP): a refinement is not rendered; isWallTime also checks the calendar. */
const WALL_TIME_SHAPE = { pattern: WALL_TIME.source };

export type FieldKind =
  | 'integer'
  | 'string'
  | 'boolean'
  | 'timestamp'
  | 'date'
  | 'walltime'
  | 'enum'
  | 'decimal'
  | 'money'
  | 'object'
  | 'array'
  | 'metadata';
export type WriteMode = 'required' | 'optional';

/**
 * An attribute: R is its value as read, I as written, W how the API writes it (undefined: read-only), S
 * how staff write it in the portal's Practice pages (resources the API keeps read-only, set up by the clinic).
 */
export interface Field<
  R = unknown,
  I = unknown,
  W extends WriteMode | undefined = WriteMode | undefined,
  S extends WriteMode | undefined = WriteMode | undefined,
> {
  kind: FieldKind;
  nullable: boolean;
  filterable: boolean;
  sortable: boolean;
  /** Full-text (trigram) index behind `contains`, for the large tables. */
  searchable?: boolean;
  maxLength?: number;
  values?: readonly string[];
  description?: string;
  write: W;
  /** How staff write it in the portal (server/domain/practice): never through the REST API unless `write` says so. */
  staff: S;
  /** Storage column when it differs from the attribute name; `false` for computed attributes. */
  column?: string | false;
  /** Zod schema of the value as read. */
  read: z.ZodType<R>;
  /** Zod schema of the value as written (create and update); present exactly when `write` or `staff` is. */
  input?: z.ZodType<I>;
  /**
   * How a filter value is read before it is compared, where the column stores a normal form of what
   * clients type (phone numbers: their search key, read in the account's region). Not for like/contains.
   */
  operand?: (raw: string, region: string) => string;
  /** Deprecated: still served, marked in the document and /schema, and announced on requests that use it (deprecation.ts). */
  deprecated?: Deprecation;
}

interface Opts {
  nullable?: boolean;
  filterable?: boolean;
  sortable?: boolean;
  searchable?: boolean;
  description?: string;
  write?: WriteMode;
  /** Written by staff in the portal (same input schema as `write`), for resources set up by the clinic. */
  staff?: WriteMode;
  column?: string | false;
  /** The write schema, when it is stricter than the builder's (trimmed names, an email...). */
  input?: z.ZodType;
  operand?: (raw: string, region: string) => string;
  deprecated?: Deprecation;
}

type Nullable<O, T> = O extends { nullable: true } ? T | null : T;
type Written<O, T> = O extends { input: infer S extends z.ZodType } ? z.output<S> : T;
type WriteOf<O> = O extends { write: infer W extends WriteMode } ? W : undefined;
type StaffOf<O> = O extends { staff: infer S extends WriteMode } ? S : undefined;
/** The field a builder makes from options O, for read type R and written type I. */
type FieldOf<O, R, I = R> = Field<Nullable<O, R>, Written<O, Nullable<O, I>>, WriteOf<O>, StaffOf<O>>;

function field<O extends Opts, R, I = R>(
  kind: FieldKind,
  base: z.ZodType<R>,
  opts: O & { maxLength?: number; values?: readonly string[] },
  input?: z.ZodType<I>,
): FieldOf<O, R, I> {
  const nullable = opts.nullable ?? false;
  const described = <T extends z.ZodType>(s: T) => (opts.description ? s.describe(opts.description) : s);
  const read = described(nullable ? base.nullable() : base);
  const writeSchema = opts.input ?? (input ? (nullable ? input.nullable() : input) : undefined);
  const built: Field = {
    kind,
    nullable,
    filterable: opts.filterable ?? false,
    sortable: opts.sortable ?? false,
    searchable: opts.searchable,
    maxLength: opts.maxLength,
    values: opts.values,
    description: opts.description,
    write: opts.write,
    staff: opts.staff,
    column: opts.column,
    operand: opts.operand,
    deprecated: opts.deprecated,
    read,
    input: opts.write || opts.staff ? described(writeSchema ?? read) : undefined,
  };
  // The schemas above are built from O at run time exactly as FieldOf<O, R, I> states at compile time.
  return built as FieldOf<O, R, I>;
}

/* eslint-disable @typescript-eslint/no-empty-object-type -- {} is "no options" in the builders' defaults */
export const f = {
  id: <const O extends Opts = {}>(opts?: O) =>
    field<O, number>('integer', z.number().int(), { filterable: true, sortable: true, ...(opts as O) }),
  integer: <const O extends Opts = {}>(opts?: O) =>
    field<O, number>(
      'integer',
      z.number().int(),
      { ...(opts as O) },
      z
        .number()
        .int()
        .min(-INT_MAX - 1)
        .max(INT_MAX),
    ),
  /** A reference to another record: integer >= 1. */
  ref: <const O extends Opts = {}>(opts?: O) =>
    field<O, number>('integer', z.number().int(), { ...(opts as O) }, recordId),
  string: <const O extends Opts & { maxLength?: number } = {}>(opts?: O) =>
    field<O, string>(
      'string',
      z.string(),
      { ...(opts as O) },
      opts?.maxLength ? z.string().max(opts.maxLength) : z.string(),
    ),
  boolean: <const O extends Opts = {}>(opts?: O) =>
    field<O, boolean>('boolean', z.boolean(), { ...(opts as O) }, z.boolean()),
  timestamp: <const O extends Opts = {}>(opts?: O) =>
    field<O, string>(
      'timestamp',
      z.string().describe('UTC timestamp, ISO 8601 ending in Z'),
      { ...(opts as O) },
      calendarTimestamp(),
    ),
  date: <const O extends Opts = {}>(opts?: O) =>
    field<O, string>('date', z.iso.date(), { ...(opts as O) }, calendarDay()),
  /** Clinic wall time in the account timezone (GET /me); a zone suffix is refused. */
  wallTime: <const O extends Opts = {}>(opts?: O) =>
    field<O, string>(
      'walltime',
      z.string().describe(WALL_TIME_RULE).meta(WALL_TIME_SHAPE),
      { ...(opts as O) },
      z.string().refine(isWallTime, `must be ${WALL_TIME_RULE}`).meta(WALL_TIME_SHAPE),
    ),
  enum: <const T extends readonly [string, ...string[]], const O extends Opts = {}>(values: T, opts?: O) =>
    field<O, T[number]>(
      'enum',
      z.enum(values) as z.ZodType<T[number]>,
      { ...(opts as O), values },
      z.enum(values) as z.ZodType<T[number]>,
    ),
  decimal: <const O extends Opts = {}>(opts?: O) =>
    field<O, string>(
      'decimal',
      z.string().describe('Decimal amount as a string, at the currency precision'),
      { ...(opts as O) },
      z.string().regex(/^-?\d+(\.\d+)?$/),
    ),
  /**
   * An amount of the account currency: stored as integer minor units in `column`, read and written as a
   * decimal string ("12.50"), filtered with decimal operands.
   */
  money: <const O extends Opts & { column: string; positive?: boolean }>({ positive, ...opts }: O) => {
    const amount = z
      .string()
      .regex(MONEY_PATTERN, 'must be a non-negative amount with at most two decimals, as a string such as "12.50"');
    return field<O, string>(
      'money',
      z.string().describe('Amount in the account currency, a decimal string with two decimals'),
      opts as O,
      positive ? amount.refine((s) => parseMoney(s) > 0, 'must be greater than 0') : amount,
    );
  },
  object: <T, const O extends Opts = {}>(read: z.ZodType<T>, opts?: O) =>
    field<O, T>('object', read, { ...(opts as O) }),
  array: <T, const O extends Opts = {}>(read: z.ZodType<T>, opts?: O) => field<O, T>('array', read, { ...(opts as O) }),
  metadata: () =>
    field<{ write: 'optional'; input: typeof metadataInput; description: string }, Metadata, MetadataPatch>(
      'metadata',
      metadataRead,
      {
        write: 'optional',
        // The key bound is a refinement, which JSON Schema would not show: stated for OpenAPI, /schema and MCP.
        input: metadataInput.meta({ maxProperties: METADATA_MAX_KEYS }),
        description: 'Up to 50 keys; values string (≤ 500), number or boolean. Writes merge keys; null removes one.',
      },
    ),
};
/* eslint-enable @typescript-eslint/no-empty-object-type */

/** The columns every record shares. */
export const standardFields = () => ({
  created_at: f.timestamp({ filterable: true, sortable: true }),
  updated_at: f.timestamp({ filterable: true, sortable: true }),
  metadata: f.metadata(),
});
