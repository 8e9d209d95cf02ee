/**
 * Field builders for resource declarations. A field says, once, what an attribute is: its type,
 * whether it is nullable, its limits, whether it can be filtered and sorted, and how it is written.
 * From these the read schema, the write schemas, the list engine, /schema, OpenAPI and MCP are derived.
 */
import { z } from 'zod';
import { MONEY_PATTERN, parseMoney } from '../values/money';
import { isWallTime } from '../values/wall-time';
import { metadataInput, metadataRead } from './metadata';

/** Integer columns are 32-bit on PostgreSQL: a larger value is a 422, not a database error. */
export const INT_MAX = 2_147_483_647;

const WALL_TIME_RULE = 'a clinic wall time YYYY-MM-DDTHH:MM:SS in the account timezone, with no zone suffix';

export type FieldKind = 'integer' | 'string' | 'boolean' | 'timestamp' | 'date' | 'walltime' | 'enum' | 'decimal' | 'money' | 'object' | 'array' | 'metadata';

export interface Field {
  kind: FieldKind;
  nullable: boolean;
  filterable: boolean;
  sortable: boolean;
  /** Full-text (trigram) index behind `contains`, for the large tables. */
  searchable?: boolean;
  maxLength?: number;
  values?: readonly string[];
  description?: string;
  /** How the attribute is written: absent = read-only. */
  write?: 'required' | 'optional';
  /** Storage column when it differs from the attribute name; `false` for computed attributes. */
  column?: string | false;
  /** Zod schema of the value as read. */
  read: z.ZodType;
  /** Zod schema of the value as written (create and update). */
  input?: z.ZodType;
}

type Opts = Partial<Pick<Field, 'nullable' | 'filterable' | 'sortable' | 'searchable' | 'description' | 'write' | 'column' | 'input'>>;

function field(kind: FieldKind, base: z.ZodType, opts: Opts & { maxLength?: number; values?: readonly string[] }, input?: z.ZodType): Field {
  const nullable = opts.nullable ?? false;
  const described = <T extends z.ZodType>(s: T) => (opts.description ? s.describe(opts.description) : s);
  const read = described(nullable ? base.nullable() : base);
  const writeSchema = opts.input ?? (input ? (nullable ? input.nullable() : input) : undefined);
  return {
    kind,
    nullable,
    filterable: opts.filterable ?? false,
    sortable: opts.sortable ?? false,
    searchable: opts.searchable,
    maxLength: opts.maxLength,
    values: opts.values,
    description: opts.description,
    write: opts.write,
    column: opts.column,
    read,
    input: opts.write ? described(writeSchema ?? read) : undefined,
  };
}

export const f = {
  id: (opts: Opts = {}) => field('integer', z.number().int(), { filterable: true, sortable: true, ...opts }),
  integer: (opts: Opts = {}) => field('integer', z.number().int(), opts, z.number().int().min(-INT_MAX - 1).max(INT_MAX)),
  /** A reference to another record: integer >= 1. */
  ref: (opts: Opts = {}) => field('integer', z.number().int(), opts, z.number().int().min(1).max(INT_MAX)),
  string: (opts: Opts & { maxLength?: number } = {}) =>
    field('string', z.string(), opts, opts.maxLength ? z.string().max(opts.maxLength) : z.string()),
  boolean: (opts: Opts = {}) => field('boolean', z.boolean(), opts, z.boolean()),
  timestamp: (opts: Opts = {}) => field('timestamp', z.string().describe('UTC timestamp, ISO 8601 ending in Z'), opts, z.iso.datetime()),
  date: (opts: Opts = {}) => field('date', z.iso.date(), opts, z.iso.date()),
  /** Clinic wall time in the account timezone (GET /me); a zone suffix is refused. */
  wallTime: (opts: Opts = {}) =>
    field('walltime', z.string().describe(WALL_TIME_RULE), opts, z.string().refine(isWallTime, `must be ${WALL_TIME_RULE}`)),
  enum: <T extends readonly [string, ...string[]]>(values: T, opts: Opts = {}) =>
    field('enum', z.enum(values), { ...opts, values }, z.enum(values)),
  decimal: (opts: Opts = {}) =>
    field('decimal', z.string().describe('Decimal amount as a string, at the currency precision'), opts, z.string().regex(/^-?\d+(\.\d+)?$/)),
  /**
   * An amount of the account currency: stored as integer minor units in `column`, read and written as a
   * decimal string ("12.50"), filtered with decimal operands.
   */
  money: ({ positive, ...opts }: Opts & { column: string; positive?: boolean }) => {
    const amount = z.string().regex(MONEY_PATTERN, 'must be a non-negative amount with at most two decimals, as a string such as "12.50"');
    return field(
      'money',
      z.string().describe('Amount in the account currency, a decimal string with two decimals'),
      opts,
      positive ? amount.refine((s) => parseMoney(s) > 0, 'must be greater than 0') : amount,
    );
  },
  object: (read: z.ZodType, opts: Opts = {}) => field('object', read, opts),
  array: (read: z.ZodType, opts: Opts = {}) => field('array', read, opts),
  metadata: () =>
    field('metadata', metadataRead, {
      write: 'optional',
      input: metadataInput,
      description: 'Up to 50 keys; values string (≤ 500), number or boolean. Writes merge keys; null removes one.',
    }),
};

/** The columns every record shares. */
export const standardFields = () => ({
  created_at: f.timestamp({ filterable: true, sortable: true }),
  updated_at: f.timestamp({ filterable: true, sortable: true }),
  metadata: f.metadata(),
});
