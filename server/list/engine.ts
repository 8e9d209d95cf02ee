/**
 * The generic list engine: filters, sorts, offset paging and keyset cursor paging over any declared
 * resource, always scoped to the account. Cursor pages never use OFFSET, so page 1000 costs what page
 * 1 costs.
 */
import {
  and,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  sql,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { isPg } from '../../db/dialect';
import { estimatedRows } from '../../db/estimate';
import { invalid as fail } from '../errors';
import type { Resource, Row } from '../resources/define';
import { Binder } from './binder';
import { filterConditions, usesSearchIndex } from './conditions';
import { decodeCursor, encodeCursor, queryDigest, type CursorValues } from './cursor';
import { parseFilters, parseSort, RANGE_OPERATORS, rangeOrder, type SortKey } from './grammar';
import { loadEmbeds } from './embeds';
import { countsKept, idAtOffset } from './offsets';
import { selectedRows } from './rows';
import { refuseScanningFilters } from './scans';
import { CAPPED_TOTAL, cappedCount, COUNT_SHORTCUTS, listTotal, type TotalHint } from './total';
import { readFeedPage, readSnapshotBounds, settledOnly, waitSeconds } from './feed';

/** A select of records of the resource in the clinic `account`: their columns and their embeds. */
export const select = (db: Db, resource: Resource, account: number | Placeholder) =>
  db.select(resource.selection(account) as never);

export type RawQuery = Record<string, string | string[] | undefined>;

/** The query parameters of a list request as the grammar reads them: text values, repeated or not. */
export function rawQuery(params: Record<string, unknown>): RawQuery {
  const out: RawQuery = Object.create(null);
  for (const [k, v] of Object.entries(params)) {
    if (typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'))) out[k] = v;
  }
  return out;
}

export const PAGE_MAX = 10_000;
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_DEFAULT = 25;

/**
 * Offset pages that skip this many rows or more read the page's ids first, through the order's index
 * alone (an index-only scan on PostgreSQL, a covering index on SQLite), and then only the page's rows
 * (a deferred join). A plain OFFSET fetches every skipped row whole: page 9,001 of 100 on 980,000
 * appointments took 850 ms that way and 102 ms deferred. Shallow pages, the common case, keep the plain
 * statement. Mutable for tests.
 */
export const DEEP_OFFSET = { rows: 1_000 };

/**
 * What an offset page costs, as /schema, OpenAPI and MCP state it: the rows it skips are still read, as
 * index entries. The spec's deepest page (10,000 of 100: a million skipped) measured 45–90 ms on
 * PostgreSQL on the 2-core bench machine (docs/benchmarks.md), against 2–7 ms for a cursor page anywhere.
 */
export const OFFSET_COST =
  'An offset page reads the rows it skips (as index entries): the deepest page, a million rows in, takes tens of milliseconds where a cursor page takes a few at any depth. Walk a long list by cursor. A list whose paging says `counted_offsets: true` in /schema serves a deep page of its default order (id ascending, no filter) from counts of its rows per range of ids, in a few milliseconds at any depth.';

/**
 * A page sorted by one column with a range on another (`starts_at=gte:…&sort=patient_id`; without a sort
 * the range's own order is taken: grammar.ts rangeOrder) is read range first when PostgreSQL expects at
 * most this many matching rows: the order's index is kept out of the plan (its first key is sorted as an
 * expression), so the planner reads the matches' ids through the range's index, sorts them, and then
 * fetches the page's rows (the deferred form of deep pages). Left to itself it walks the order's index
 * and drops rows that miss the range, expecting matches spread evenly along it; where the order follows
 * time (ids do) a recent range sits at the far end of the walk (1.5 s for 20 rows measured on a
 * 5.9M-appointment clinic). Above the bound the range is broad and sorting its matches would cost more
 * than the walk. Mutable for tests.
 */
export const RANGE_FIRST = { rows: 20_000 };

export interface ListScope {
  db: Db;
  accountId: number;
  /** The account's region: filter values some fields read in the account's terms (phone numbers). */
  region?: string;
  /** Absolute URL of the collection, for links. */
  url: string;
  /** A member's record scope (server/auth/record-scope.ts): one more condition, prepared per key. */
  restrict?: { key: string; condition: SQL };
}

export interface ListResult {
  data: Record<string, unknown>[];
  links: { first: string | null; prev: string | null; next: string | null };
  meta:
    | { current_page: number; per_page: number; total: number; last_page: number; total_estimated: boolean }
    | { per_page: number; has_more: boolean };
}

function intParam(name: string, raw: string | string[] | undefined, min: number, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (Array.isArray(raw) || !/^\d{1,9}$/.test(raw)) throw fail(name, `${name} must be an integer`);
  const n = Number(raw);
  if (n < min) throw fail(name, `${name} must be at least ${min}`);
  return n;
}

function single(name: string, raw: string | string[] | undefined): string | undefined {
  if (Array.isArray(raw)) throw fail(name, `${name} may be given once`);
  return raw;
}

/**
 * The tenant and scope conditions. `searchDriven`: the rows come from the trigram index, so the account
 * condition must not steer SQLite onto the (account_id, id) index (unary + keeps it off: 40k matches at
 * 1M rows count in 17 ms instead of 43 ms).
 */
export function baseConditions(resource: Resource, accountId: number | Placeholder, searchDriven = false): SQL[] {
  const conds = [
    searchDriven && !isPg
      ? sql`+${resource.table.account_id} = ${accountId}`
      : eq(resource.table.account_id, accountId),
  ];
  if (resource.scope) conds.push(resource.scope(resource.table));
  return conds;
}

function linkWith(url: string, query: RawQuery, set: Record<string, string>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || k in set) continue;
    for (const item of Array.isArray(v) ? v : [v]) params.append(k, item);
  }
  for (const [k, v] of Object.entries(set)) params.set(k, v);
  return `${url}?${params.toString()}`;
}

export async function listRecords(resource: Resource, scope: ListScope, query: RawQuery): Promise<ListResult> {
  const filters = parseFilters(resource, query, scope.region);
  const asked = parseSort(resource, single('sort', query.sort));
  const pageSize = intParam('page_size', single('page_size', query.page_size), 1, PAGE_SIZE_DEFAULT);
  if (pageSize > PAGE_SIZE_MAX) throw fail('page_size', `page_size must be at most ${PAGE_SIZE_MAX}`);
  const cursor = single('cursor', query.cursor);
  if (cursor !== undefined && query.page !== undefined) throw fail('page', 'page cannot be combined with cursor');
  const page = Math.min(intParam('page', single('page', query.page), 1, 1), PAGE_MAX);
  const feed = resource.feed;
  const wait = feed ? waitSeconds(query.wait, cursor !== undefined) : 0;

  // Values go to placeholders; the SQL is built and prepared once per shape of query.
  const b = new Binder();
  const searchDriven = filters.some((f) => usesSearchIndex(resource, f));
  const account = b.bind(scope.accountId);
  const base = baseConditions(resource, account, searchDriven);
  // A big clinic's list filtered only by filters no index serves is refused before it reads every row (scans.ts).
  await refuseScanningFilters(scope.db, resource, filters, base, b.values);
  const where = [...base, ...filterConditions(b, resource, filters)];
  if (scope.restrict) where.push(scope.restrict.condition);
  // A feed read in its own order serves only rows no running transaction can precede (feed.ts).
  const feedOrder = feed !== undefined && asked.length === 0;
  const sortKeys = asked.length === 0 && !feedOrder ? rangeOrder(resource, filters) : asked;
  const order = orderColumns(resource, sortKeys);
  const settled = feedOrder ? settledOnly(feed) : [];
  // What is settled is read afresh before each statement that asks (feed.ts).
  const settling = settled.length > 0;
  const snapshot = () => (settling ? readSnapshotBounds(scope.db, b.values) : Promise.resolve());
  const digest =
    cursor === undefined
      ? ''
      : queryDigest(resource.name, {
          q: Object.entries(query)
            .filter(([k]) => k !== 'cursor' && k !== 'wait')
            .sort(([x], [y]) => (x < y ? -1 : 1)),
          pageSize,
        });
  let keysetValues: CursorValues | null = null;
  if (cursor) {
    keysetValues = decodeCursor(cursor, digest);
    if (keysetValues.length !== order.length) throw fail('cursor', 'invalid cursor');
    where.push(after(b, order, keysetValues));
  }
  const limit = b.bind(cursor === undefined ? pageSize : pageSize + 1);
  const offset = b.bind(cursor === undefined ? (page - 1) * pageSize : 0);
  const shape = JSON.stringify([
    resource.name,
    filters.map((f) => [
      f.kind,
      f.kind === 'field' ? f.attribute : '',
      f.op,
      f.values.map((v) => typeof v),
      usesSearchIndex(resource, f),
    ]),
    sortKeys,
    keysetValues?.map((v) => v === null) ?? null,
    scope.restrict?.key ?? null,
  ]);
  // Planned with their values each time on PostgreSQL (db/prepared.ts): text searches and ranges off the
  // order's first column, whose selectivity decides the plan (a range in its own order is read through its
  // index whatever the values: the diary keeps its plan); and lists hidden with a soft-removed ancestor:
  // the anti-join's generic plan is built for an average clinic and hashed all of a big one's timeline
  // entries to count its tags (663 ms; planned with the clinic's own values, 35 ms).
  const rangeElsewhere = filters.some(
    (f) => f.kind === 'field' && RANGE_OPERATORS.has(f.op) && resource.column(f.attribute) !== order[0].col,
  );
  const plannedEachTime =
    isPg && (rangeElsewhere || resource.joinsAncestor || filters.some((f) => f.op === 'like' || f.op === 'contains'));
  const deep = cursor === undefined && (page - 1) * pageSize >= DEEP_OFFSET.rows;
  // A deep page of the whole list in id order starts from the counts where the table keeps them (offsets.ts).
  const fromCounts =
    deep &&
    !feedOrder &&
    filters.length === 0 &&
    !scope.restrict &&
    order.length === 1 &&
    !order[0].desc &&
    (await countsKept(scope.db, resource));
  // PostgreSQL's estimate of the matching rows, asked at most once: for RANGE_FIRST and for a costly count.
  let expecting: Promise<number> | undefined;
  const expected = () =>
    (expecting ??= estimatedRows(
      scope.db,
      scope.db
        .select({ one: sql`1` })
        .from(resource.table)
        .where(and(...where, ...settled)),
      b.values,
    ));
  const rangeFirst = isPg && rangeElsewhere && !feedOrder && (await expected()) <= RANGE_FIRST.rows;
  // On PostgreSQL a first page's or a cursor page's embeds are selected with its rows, a correlated
  // subquery each (db/json.ts embedColumn), instead of a statement of their own: a round trip fewer per
  // page, which was a fifth of a busy server's time (the diary at 8 connections: 440–540 → 680–760 req/s).
  // Not past an OFFSET: in the page's own select PostgreSQL evaluates them for every row it skips too,
  // the page wrapped below its LIMIT is refused by Citus (correlated subqueries over a subquery in FROM),
  // and reading its ids first let a planner without statistics re-run the ids' search for every row of
  // the clinic (a 12,000-patient search that never answered). Those pages and SQLite (no round trips; its
  // batch is faster) read a page's embeds in one more statement (embeds.ts).
  const embedsInPage = isPg && resource.embeds !== undefined && (cursor !== undefined || page === 1);
  // Counts that cost a lookup per row are made only when the page is full and PostgreSQL expects few
  // enough matches (total.ts): a text search rechecks every trigram candidate (counting 10,001 matches of
  // a common one read 130,000 candidates: 557 ms), a list hidden with an ancestor probes it per row (10,001
  // timeline tags: 35–90 ms).
  const costlyCount =
    COUNT_SHORTCUTS.on &&
    isPg &&
    (resource.joinsAncestor || filters.some((f) => f.op === 'contains' || f.op === 'like'));
  // On PostgreSQL an offset page's capped count is a column of its statement, for the same round trip
  // (total.ts cappedCount); a costly count waits for the page to say whether it is needed.
  const countInPage = isPg && cursor === undefined && !costlyCount;
  const selection = embedsInPage ? resource.selection(account) : resource.columns;
  const pageSelection = countInPage ? withCappedTotal(selection) : selection;
  const rowsQuery = prepared(
    scope.db,
    `${deep || rangeFirst ? 'list-deep' : 'list'}${fromCounts ? '-from-counts' : ''}${rangeFirst ? '-range' : ''}${countInPage ? '-counted' : ''}${embedsInPage ? '-embedded' : ''}:${shape}`,
    () => {
      const startsAt = fromCounts ? [gte(resource.table.id, idAtOffset(resource, account, base, offset))] : [];
      const ordered = <T>(columns: T) => {
        const page = scope.db
          .select(columns as never)
          .from(resource.table)
          .where(and(...where, ...settled, ...startsAt))
          .orderBy(...order.map((o, i) => orderBy(o, rangeFirst && i === 0)))
          .limit(limit);
        return fromCounts ? page : page.offset(offset);
      };
      // The statement's own columns: the count's SQL is this query's (its decoding is pageSelection's).
      const columns = (of: object) =>
        countInPage ? { ...of, [CAPPED_TOTAL]: cappedCount(scope.db, resource.table, [...where, ...settled]) } : of;
      if (!deep && !rangeFirst) return ordered(columns(selection));
      const ids = ordered({ id: resource.table.id });
      // A semi-join: PostgreSQL probes the page's rows by key (`= any(array(…))` measured 3–4x slower).
      return scope.db
        .select(columns(selection) as never)
        .from(resource.table)
        .where(and(...base, inArray(resource.table.id, ids)))
        .orderBy(...order.map((o) => orderBy(o)));
    },
    { plannedEachTime },
  );

  // Whether rows the page's conditions match are still held back by an older transaction (feed.ts).
  const anyHeld = async (held: SQL) => {
    await snapshot();
    const query = prepared(scope.db, `held:${shape}`, () =>
      scope.db
        .select({ one: sql`1` })
        .from(resource.table)
        .where(and(...where, held))
        .limit(1),
    );
    return ((await query.execute(b.values)) as unknown[]).length > 0;
  };

  if (cursor !== undefined) {
    const readPage = async () => {
      await snapshot();
      return selectedRows(selection, rowsQuery, b.values);
    };
    const rows = feedOrder ? await readFeedPage(feed, wait, pageSize, readPage, anyHeld) : await readPage();
    const hasMore = rows.length > pageSize;
    if (hasMore) rows.pop();
    if (!embedsInPage) await loadEmbeds(scope.db, resource, scope.accountId, rows);
    const last = rows[rows.length - 1];
    const at = (row: Row) => order.map(({ key }) => (row[key] ?? null) as CursorValues[number]);
    // A feed's last page links where to resume: after its last row, or where this page started.
    const next = last && (hasMore || feedOrder) ? encodeCursor(digest, at(last)) : feedOrder ? cursor : null;
    return {
      data: rows.map(resource.toRecord),
      links: { first: null, prev: null, next: next !== null ? linkWith(scope.url, query, { cursor: next }) : null },
      meta: { per_page: pageSize, has_more: hasMore },
    };
  }

  // Pages past the limit are clamped, and meta.current_page says which page was served.
  const readPage = async () => {
    await snapshot();
    return selectedRows(pageSelection, rowsQuery, b.values);
  };
  // A feed's numbered page waits like its cursor pages for rows an older transaction still holds back,
  // so a reader sees its own writes at once there too (no `wait`: it never waits for new rows).
  const pageRows = async () => {
    const rows = feedOrder ? await readFeedPage(feed, 0, pageSize, readPage, anyHeld) : await readPage();
    if (!embedsInPage) await loadEmbeds(scope.db, resource, scope.accountId, rows);
    return rows;
  };
  const totalOf = (known?: TotalHint) =>
    listTotal(scope.db, resource.table, [...where, ...settled], shape, b.values, plannedEachTime, known);
  const hint = (r: Row[]): TotalHint => ({
    offset: (page - 1) * pageSize,
    rows: r.length,
    pageSize,
    expected,
    costly: costlyCount,
    capped: countInPage && r.length > 0 ? (r[0][CAPPED_TOTAL] as number) : undefined,
  });
  // SQLite counts beside the page (no round trip to save); PostgreSQL reads the page first, whose
  // statement made the count or tells whether a costly one is needed.
  const [rows, { total, estimated }] = isPg
    ? await pageRows().then(async (r) => [r, await totalOf(hint(r))] as const)
    : await Promise.all([pageRows(), totalOf()]);
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  const link = (p: number) => linkWith(scope.url, query, { page: String(p), page_size: String(pageSize) });
  return {
    data: rows.map(resource.toRecord),
    links: {
      first: link(1),
      prev: page > 1 ? link(Math.min(page - 1, lastPage)) : null,
      next: page < lastPage ? link(page + 1) : null,
    },
    meta: { current_page: page, per_page: pageSize, total, last_page: lastPage, total_estimated: estimated },
  };
}

/** The selection's twin with the capped count after its columns, for decoding (one per selection). */
const withTotal = new WeakMap<object, Record<string, unknown>>();
function withCappedTotal(selection: object): Record<string, unknown> {
  let out = withTotal.get(selection);
  if (!out) withTotal.set(selection, (out = { ...selection, [CAPPED_TOTAL]: sql`0`.mapWith(Number) }));
  return out;
}

/**
 * One sort key in SQL. Nulls sort first ascending and last descending on both databases: SQLite's own
 * order, so it gets no NULLS clause; PostgreSQL's default is the reverse, so a nullable column gets the
 * clause (served by an `(account_id, col NULLS FIRST, id)` index, scanned backwards for DESC). A NOT NULL
 * column gets none: with it, no ordinary index yields the order and every page sorted all of the
 * clinic's rows (a 1,351 ms first page of appointments against 0.08 ms without).
 */
function orderBy({ col, desc: d, nullable }: OrderColumn, unindexed = false): SQL {
  // The same values and nulls, as an expression no index is built on (RANGE_FIRST).
  const key = unindexed ? sql`coalesce(${col}, ${col})` : sql`${col}`;
  if (isPg && nullable) return d ? sql`${key} DESC NULLS LAST` : sql`${key} ASC NULLS FIRST`;
  return d ? sql`${key} DESC` : sql`${key} ASC`;
}

interface OrderColumn {
  key: string;
  col: PgColumn;
  desc: boolean;
  nullable: boolean;
}

/**
 * The sort keys as columns, with id as the final tiebreaker (in the direction of the last key). A feed
 * asked for no sort is read by its commit position first (feed.ts).
 */
function orderColumns(resource: Resource, keys: SortKey[]): OrderColumn[] {
  const position = keys.length === 0 ? resource.feed?.position : undefined;
  if (position) return [{ key: position.name, col: position, desc: false, nullable: false }, idOrder(resource, false)];
  const cols: OrderColumn[] = keys
    .filter((k) => k.attribute !== 'id')
    .map((k) => {
      const col = resource.column(k.attribute)!;
      return { key: col.name, col, desc: k.desc, nullable: !col.notNull };
    });
  const idKey = keys.find((k) => k.attribute === 'id');
  cols.push(idOrder(resource, idKey ? idKey.desc : (keys[keys.length - 1]?.desc ?? false)));
  return cols;
}

const idOrder = (resource: Resource, desc: boolean): OrderColumn => ({
  key: 'id',
  col: resource.table.id,
  desc,
  nullable: false,
});

/**
 * Rows strictly after `values` in the order (NULLS FIRST ascending, NULLS LAST descending, the same on
 * both databases), as a chain: a > va OR (a = va AND (b > vb OR (b = vb AND id > vid))).
 */
function after(b: Binder, order: OrderColumn[], values: CursorValues): SQL {
  const build = (i: number): SQL => {
    const { col, desc: d } = order[i];
    const v = values[i] === null ? null : b.bind(values[i], col);
    if (i === order.length - 1) return d ? lt(col, v) : gt(col, v);
    const rest = build(i + 1);
    if (v === null) return d ? and(isNull(col), rest)! : or(isNotNull(col), and(isNull(col), rest))!;
    const beyond = d ? or(lt(col, v), isNull(col))! : gt(col, v);
    return or(beyond, and(eq(col, v), rest))!;
  };
  // Planners do not turn the OR chain into an index range; a plain bound on the first key lets them
  // start the index scan at the cursor (measured on SQLite at 1M rows: 8.5 ms → 1 ms for page 1000).
  const { col, desc: d } = order[0];
  const v = values[0] === null ? null : b.bind(values[0], col);
  const bound = v === null ? undefined : d ? (order[0].nullable ? undefined : lte(col, v)) : gte(col, v);
  return bound ? and(bound, build(0))! : build(0);
}
