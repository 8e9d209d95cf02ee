/**
 * A feed (the events): a list a reader follows by its cursor and resumes from later without missing a
 * row. Its order is the order of commit, not of stamping: on PostgreSQL, concurrent transactions commit
 * out of the order in which they stamped their rows, so a reader that had seen a later row would resume
 * past one committed afterwards. Each row carries its writing transaction's id (xid8, `position`), and
 * the feed serves only rows whose transaction is older than every transaction still running
 * (`pg_snapshot_xmin`): every row that can still appear then lies after every row served. That bound
 * is read in a statement of its own before each page (FEED_XMIN): on Citus the positions are the
 * coordinator's transaction ids (it evaluates an insert's defaults) while a page's conditions run on the
 * clinic's worker, whose own snapshot knows nothing of them (inline, it served no row at all). SQLite
 * serialises writes, so the id is already the order of commit. docs/decisions.md, "The events feed".
 *
 * The last cursor page links where to resume (links.next is never null), and `wait=` holds a last page
 * that came back empty until a row arrives or the seconds run out.
 */
import { not, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { nextAnnouncement } from '../../db/commits';
import { isPg } from '../../db/dialect';
import { invalid as fail } from '../errors';

/** Longest `wait=` in seconds: well inside the request deadline (REQUEST_TIMEOUT_MS, 30 s by default). */
export const FEED_WAIT_MAX = 20;
/**
 * How long a page that stops short of rows already committed waits for the transactions that hold them
 * back (still running, and older): a reader then sees its own writes at once, whatever else is running.
 */
const SETTLE_MS = 5_000;
/** How often a waiting reader looks for rows committed by other processes (this one's wake it at once). */
const POLL_MS = 100;

export interface Feed {
  /** PostgreSQL: the commit position column, ordered before the id. */
  position?: PgColumn;
}

/**
 * Rows a transaction still running could precede: held back (PostgreSQL). FEED_XMIN is the oldest
 * transaction still running when the page was read (readSnapshotBounds, just before).
 */
export const FEED_XMIN = 'feed_xmin';
const unsettled = (position: PgColumn): SQL => sql`${position} >= ${sql.placeholder(FEED_XMIN)}::xid8`;
/**
 * What a page waits for: held rows written by transactions that had begun when the request came (their
 * ids are below the snapshot's xmax then, FEED_BEFORE), not the ones that keep coming after it.
 */
export const FEED_BEFORE = 'feed_before';
const heldBefore = (position: PgColumn): SQL =>
  sql`${unsettled(position)} AND ${position} < ${sql.placeholder(FEED_BEFORE)}::xid8`;
/**
 * The oldest transaction still running and the first not yet begun, on the node the app's transactions
 * begin on (a statement without tables runs on Citus's coordinator): into FEED_XMIN, and into FEED_BEFORE
 * the first time (the bound of what a request waits for).
 */
export async function readSnapshotBounds(db: Db, values: Record<string, unknown>): Promise<void> {
  const { rows } = await db.execute<{ xmin: string; xmax: string }>(
    sql`SELECT pg_snapshot_xmin(s)::text AS xmin, pg_snapshot_xmax(s)::text AS xmax FROM pg_current_snapshot() s`,
  );
  values[FEED_XMIN] = rows[0].xmin;
  values[FEED_BEFORE] ??= rows[0].xmax;
}

/** The conditions of a feed's page: only settled rows. */
export function settledOnly(feed: Feed): SQL[] {
  return isPg && feed.position ? [not(unsettled(feed.position))] : [];
}

/** `wait` in seconds (0 when absent); only with cursor paging. */
export function waitSeconds(raw: string | string[] | undefined, cursorPaging: boolean): number {
  if (raw === undefined || raw === '') return 0;
  if (Array.isArray(raw) || !/^\d{1,3}$/.test(raw) || Number(raw) > FEED_WAIT_MAX)
    throw fail('wait', `wait must be a whole number of seconds from 0 to ${FEED_WAIT_MAX}`);
  if (!cursorPaging)
    throw fail('wait', 'wait needs cursor paging: send cursor= (empty to start) or the cursor of links.next');
  return Number(raw);
}

/**
 * Reads a feed's cursor page, waiting at its end: while rows of transactions that had begun when the
 * request came are held back by an older transaction still running (up to SETTLE_MS), and while the page
 * is empty and `wait` seconds have not run out. `read` runs the page's query; `held` tells whether the
 * page's conditions match held rows (given the condition; FEED_BEFORE comes with the first read's bounds).
 */
export async function readFeedPage<R>(
  feed: Feed,
  waitS: number,
  pageSize: number,
  read: () => Promise<R[]>,
  held: (condition: SQL) => Promise<boolean>,
): Promise<R[]> {
  const start = Date.now();
  const waitUntil = start + waitS * 1000;
  const settleBy = start + SETTLE_MS;
  const settling = isPg && feed.position !== undefined;
  for (;;) {
    const rows = await read();
    if (rows.length > pageSize) return rows;
    const now = Date.now();
    if (settling && now < Math.max(settleBy, waitUntil) && (await held(heldBefore(feed.position!)))) {
      await nextAnnouncement(10);
      continue;
    }
    // Nothing held now: rows that settled since the read above belong on this page too.
    const page = settling ? await read() : rows;
    if (page.length > 0 || now >= waitUntil) return page;
    await nextAnnouncement(Math.min(POLL_MS, waitUntil - now));
  }
}
