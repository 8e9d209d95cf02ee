/**
 * `meta.total` of an offset page, bounded: counted exactly up to EXACT_TOTAL_UP_TO rows (the count stops
 * there: `count(*)` over a subquery with a LIMIT), and past it estimated and marked so
 * (`meta.total_estimated: true`). An exact count of a big clinic's appointments read every matching row
 * on every page (108–863 ms on PostgreSQL with 5.7M appointments; 140 ms on SQLite with 5M; capped and
 * estimated: 1–3 ms). Past the bound PostgreSQL's planner estimate is used. SQLite keeps no statistics to
 * estimate from, so there the estimate is the matching rows' density over their id range, measured on
 * the first EXACT_TOTAL_UP_TO + 1 of them in id order, times the whole range (ids grow with time, so a
 * clinic's rows fill their range about as densely throughout): three reads along an index, of one row,
 * EXACT_TOTAL_UP_TO + 1 rows and one row.
 * On PostgreSQL the capped count is a column of the page's own statement (cappedCount: a round trip
 * fewer), and a page short of full is its own total. A count that costs a lookup per row there (a text
 * search; a list hidden with a soft-removed ancestor) is made after its page, and not when its page is
 * short (the total is then known) or when the planner expects more than the bound (its estimate is the
 * total): each candidate row of a trigram match is rechecked in the table, and counting 10,001 matches
 * of `last_name=contains:o'n` read 130,000 candidates (557 ms; the page itself took 1 ms).
 */
import { and, asc, count, desc, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { isPg } from '../../db/dialect';
import { estimatedRows } from '../../db/estimate';
import { prepared } from '../../db/prepared';

export const EXACT_TOTAL_UP_TO = 10_000;
/**
 * Whether costly counts take the planner's word (below) and are made after their page. Mutable for tests:
 * off, such a list counts in its page's statement as any other, and the plan tests read that count.
 */
export const COUNT_SHORTCUTS = { on: true };

export interface ListTotal {
  total: number;
  estimated: boolean;
}

/** The page's column holding the capped count when the page's statement makes it (cappedCount). */
export const CAPPED_TOTAL = '__capped_total';

/** The matching rows, counted up to EXACT_TOTAL_UP_TO + 1: a select of one `total`. */
function cappedSelect(db: Db, table: PgTable, where: SQL[]) {
  return db.select({ total: count() }).from(
    db
      .select({ one: sql`1` })
      .from(table)
      .where(and(...where))
      .limit(EXACT_TOTAL_UP_TO + 1)
      .as('capped'),
  );
}

/**
 * The capped count as a column of the page's own statement (PostgreSQL): an uncorrelated subquery, run
 * once (an InitPlan) whatever the page's OFFSET, and a round trip fewer than a statement of its own
 * (docs/decisions.md, "The count in the page's statement"). Read it with `known.capped`; a page that
 * comes back empty carries no row to read it from, and listTotal counts then.
 */
export const cappedCount = (db: Db, table: PgTable, where: SQL[]): SQL<number> =>
  sql<number>`(${cappedSelect(db, table, where)})`.mapWith(Number);

/** What the page already tells of the total. */
export interface TotalHint {
  offset: number;
  rows: number;
  pageSize: number;
  /** PostgreSQL's estimate of the matching rows (asked once per request by the engine). */
  expected: () => Promise<number>;
  /** A count that is costly per row: made only when neither the page nor the estimate tells the total. */
  costly: boolean;
  /** The capped count the page's statement made (cappedCount), when it made one and returned a row. */
  capped?: number;
}

export async function listTotal(
  db: Db,
  table: PgTable,
  where: SQL[],
  shape: string,
  values: Record<string, unknown>,
  plannedEachTime: boolean,
  known?: TotalHint,
): Promise<ListTotal> {
  const matching = () =>
    db
      .select({ one: sql`1` })
      .from(table)
      .where(and(...where));
  // A page short of full (and not past the end) ends the list: the total is known exactly (an empty first
  // page too, which carries no count of the page's statement).
  if (known && known.rows < known.pageSize && (known.rows > 0 || known.offset === 0))
    return { total: known.offset + known.rows, estimated: false };
  // PostgreSQL expects more than the bound: its estimate, without counting 10,001 rows to learn it.
  if (isPg && known?.costly) {
    const expected = await known.expected();
    if (expected > EXACT_TOTAL_UP_TO) return { total: expected, estimated: true };
  }
  let total = known?.capped;
  if (total === undefined) {
    const capped = prepared(db, `count:${shape}`, () => cappedSelect(db, table, where), { plannedEachTime });
    [{ total }] = await capped.execute(values);
  }
  if (total <= EXACT_TOTAL_UP_TO) return { total, estimated: false };
  const estimate = isPg
    ? await (known?.expected ?? (() => estimatedRows(db, matching(), values)))()
    : await fromIdDensity(db, table, where, shape, values, plannedEachTime);
  return { total: Math.max(EXACT_TOTAL_UP_TO + 1, estimate), estimated: true };
}

/** SQLite: (EXACT_TOTAL_UP_TO + 1) matching rows span ids lo…nth; the rows up to hi are as dense. */
async function fromIdDensity(
  db: Db,
  table: PgTable,
  where: SQL[],
  shape: string,
  values: Record<string, unknown>,
  plannedEachTime: boolean,
): Promise<number> {
  const id = (table as unknown as { id: PgColumn }).id;
  const idAt = async (name: string, order: SQL, offset: number) => {
    const q = prepared(
      db,
      `count-${name}:${shape}`,
      () =>
        db
          .select({ id })
          .from(table)
          .where(and(...where))
          .orderBy(order)
          .limit(1)
          .offset(offset),
      { plannedEachTime },
    );
    const [row] = (await q.execute(values)) as { id: number }[];
    return row ? Number(row.id) : null;
  };
  const lo = await idAt('lo', asc(id), 0);
  const nth = await idAt('nth', asc(id), EXACT_TOTAL_UP_TO);
  const hi = await idAt('hi', desc(id), 0);
  // Rows deleted since the count: no estimate (the caller keeps the bound).
  if (lo === null || nth === null || hi === null) return 0;
  return Math.round(((EXACT_TOTAL_UP_TO + 1) * (hi - lo + 1)) / (nth - lo + 1));
}
