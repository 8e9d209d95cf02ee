/**
 * Collects a list query's values as named placeholders while the query is built, and the facts that
 * change its SQL text (its shape). A query is then built and prepared once per shape and run with the
 * values: building a drizzle query costs more than running it (see db/prepared.ts).
 */
import { sql, type Placeholder } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

export class Binder {
  readonly values: Record<string, unknown> = {};
  private count = 0;

  /** A placeholder for a value; compared with `column`, the value is stored as that column stores it. */
  bind(value: unknown, column?: PgColumn): Placeholder {
    const name = `p${this.count++}`;
    this.values[name] = value === null || value === undefined || !column ? value : column.mapToDriverValue(value);
    return sql.placeholder(name);
  }
}
