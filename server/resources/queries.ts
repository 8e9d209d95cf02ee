/** Read helpers shared by every resource: fetch one record of the account, and schemas of list I/O. */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { FEED_WAIT_MAX } from '../list/feed';
import { ID_MAX } from './fields';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { notFound } from '../errors';
import { baseConditions, OFFSET_COST, PAGE_MAX, select } from '../list/engine';
import { selectedRows } from '../list/rows';
import { EXACT_TOTAL_UP_TO } from '../list/total';

import { DEFAULT_ORDER, OPERATORS } from '../list/grammar';
import type { AnyResource, Resource, RowType } from './define';

export { select };

export const idParam = z.coerce.number().int().min(1).max(ID_MAX).describe('Record id');

const capitalised = (s: string) => s[0].toUpperCase() + s.slice(1);

/** One stored row of the account, as the resource selects it, or undefined. Usable inside a transaction. */
export async function findRow<R extends AnyResource>(
  db: Db,
  resource: R,
  accountId: number,
  id: number,
): Promise<RowType<R> | undefined> {
  const [row] = await select(db, resource, accountId)
    .from(resource.table)
    .where(and(...baseConditions(resource, accountId), eq(resource.table.id, id)))
    .limit(1);
  return row as RowType<R> | undefined;
}

/** Stored rows of the account by id, in id order (the ids missing from the account are left out). */
export async function findRows<R extends AnyResource>(
  db: Db,
  resource: R,
  accountId: number,
  ids: number[],
): Promise<RowType<R>[]> {
  const rows = await select(db, resource, accountId)
    .from(resource.table)
    .where(and(...baseConditions(resource, accountId), inArray(resource.table.id, ids)))
    .orderBy(resource.table.id);
  return rows as RowType<R>[];
}

/** The hot single read: a prepared query per resource. Not for use inside a transaction (see db/prepared.ts). */
export async function getRow<R extends AnyResource>(
  db: Db,
  resource: R,
  accountId: number,
  id: number,
): Promise<RowType<R>> {
  const account = sql.placeholder('account');
  const query = prepared(db, `${resource.name}_by_id`, () =>
    select(db, resource, account)
      .from(resource.table)
      // No .limit(1): the id is unique, and a drizzle prepared query with a literal parameter beside
      // placeholders runs ~8x slower on SQLite (measured: 165 µs against 20 µs).
      .where(and(...baseConditions(resource, account), eq(resource.table.id, sql.placeholder('id')))),
  );
  const [row] = (await selectedRows(resource.selection(account), query, { account: accountId, id })) as RowType<R>[];
  if (!row) throw notFound(capitalised(resource.singular));
  return row;
}

const filterParam = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .describe(
    `Filter: operator:value (${OPERATORS.join(', ')}); a bare value is eq. Repeat the parameter to AND several.`,
  );

/** Query parameters of a list endpoint: paging, sort and one filter parameter per filterable attribute. */
export function listQuerySchema(resource: Resource) {
  const filters = Object.keys(resource.filters).map((k) => [k, filterParam] as const);
  const sortable = Object.entries(resource.fields)
    .filter(([, f]) => f.sortable)
    .map(([k]) => k);
  return z.looseObject({
    page: z
      .string()
      .optional()
      .describe(`Offset paging: page number, 1 to ${PAGE_MAX} (higher values are clamped). ${OFFSET_COST}`),
    page_size: z.string().optional().describe('Records per page, 1 to 100 (default 25)'),
    cursor: z.string().optional().describe('Cursor paging: send empty to start, then the token from links.next'),
    sort: z
      .string()
      .optional()
      .describe(
        `attr[:asc|desc][,attr[:asc|desc]]; sortable: ${sortable.join(', ')}. ${DEFAULT_ORDER} The id is always the final tiebreaker.`,
      ),
    ...(resource.feed
      ? {
          wait: z
            .string()
            .optional()
            .describe(
              `Cursor paging only: at the end of the feed, hold an empty page up to this many seconds (0 to ${FEED_WAIT_MAX}) and answer as soon as an event arrives`,
            ),
        }
      : {}),
    ...Object.fromEntries(filters),
  });
}

export const linksSchema = z.object({
  first: z.string().nullable(),
  prev: z.string().nullable(),
  next: z.string().nullable(),
});
export const metaSchema = z.union([
  z.object({
    current_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    last_page: z.number().int(),
    total_estimated: z
      .boolean()
      .describe(
        `false: total is exact. Counts are exact up to ${EXACT_TOTAL_UP_TO.toLocaleString('en')} matching records; past that they are estimated (true), and last_page follows the estimate.`,
      ),
  }),
  z.object({ per_page: z.number().int(), has_more: z.boolean() }),
]);

export const listOutput = (resource: Resource) =>
  z.object({ data: z.array(resource.readSchema), links: linksSchema, meta: metaSchema });
export const oneOutput = (resource: Resource) => z.object({ data: resource.readSchema });
