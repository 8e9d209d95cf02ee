/**
 * `meta.total` of an offset page, bounded: counted exactly up to EXACT_TOTAL_UP_TO rows (the count stops
 * there: `count(*)` over a subquery with a LIMIT), and past it estimated and marked so
 * (`meta.total_estimated: true`). An exact count of a big clinic's appointments read every matching row
 * on every page (108–863 ms on PostgreSQL with 5.7M appointments; capped: 2.4 ms). Past the bound
 * PostgreSQL's planner estimate is used; SQLite keeps no statistics to estimate from, so there the
 * count goes on to the end (the embedded database is for a single clinic; docs/decisions.md).
 */
import { and, count, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { isPg } from '../../db/dialect';
import { estimatedRows } from '../../db/estimate';
import { prepared } from '../../db/prepared';

export const EXACT_TOTAL_UP_TO = 10_000;

export interface ListTotal {
  total: number;
  estimated: boolean;
}

export async function listTotal(db: Db, table: PgTable, where: SQL[], shape: string, values: Record<string, unknown>, plannedEachTime: boolean): Promise<ListTotal> {
  const matching = () => db.select({ one: sql`1` }).from(table).where(and(...where));
  const capped = prepared(db, `count:${shape}`, () => db.select({ total: count() }).from(matching().limit(EXACT_TOTAL_UP_TO + 1).as('capped')), { plannedEachTime });
  const [{ total }] = await capped.execute(values);
  if (total <= EXACT_TOTAL_UP_TO) return { total, estimated: false };
  if (isPg) return { total: Math.max(EXACT_TOTAL_UP_TO + 1, await estimatedRows(db, matching(), values)), estimated: true };
  const full = prepared(db, `count-all:${shape}`, () => db.select({ total: count() }).from(table).where(and(...where)), { plannedEachTime });
  const [exact] = await full.execute(values);
  return { total: exact.total, estimated: false };
}
