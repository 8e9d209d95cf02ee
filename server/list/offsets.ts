/**
 * Deep offset pages from counts (issue 41, decision 254). An offset page reads the rows it skips: page
 * 10,000 of 100 in id order read a million index entries (60–100 ms on PostgreSQL). For the lists whose
 * tables keep counts (a resource's `countedOffsets`; the triggers of migration 0044, db/schema/offset_counts.ts),
 * a page in the default order with no filters starts instead from how many live rows each range of
 * 4,096 ids holds: the range that holds the offset is found by a running sum, and only the rows before
 * the offset inside that range are read. One statement, so the counts and the rows are of one snapshot:
 * the page is the one plain OFFSET would give.
 */
import { getTableName, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { allIn } from '../../db/client';
import { isPg } from '../../db/dialect';
import { offsetCountChanges as changes, offsetCountTriggers, offsetCounts as counts } from '../../db/schema';
import type { Resource } from '../resources/define';

/** Ids per counted range: bucket = id >> BUCKET_BITS. */
export const BUCKET_BITS = 12;

const kept = new WeakMap<Db, Map<string, Promise<boolean>>>();

/**
 * Whether this database keeps the resource's counts: its triggers are there (asked once per handle). On a
 * Citus cluster they are not (migration 0044 skips them; `clinic citus distribute` drops them), and an
 * offset page there reads the rows it skips.
 */
export function countsKept(db: Db, resource: Resource): Promise<boolean> {
  // The triggers count the rows whose deleted_at is null; a list hidden with its ancestor shows fewer.
  if (!resource.countedOffsets || resource.joinsAncestor) return Promise.resolve(false);
  let known = kept.get(db);
  if (!known) kept.set(db, (known = new Map()));
  let answer = known.get(resource.name);
  if (!answer) {
    const table = getTableName(resource.table);
    const names = offsetCountTriggers(table);
    const listed = sql.join(
      names.map((n) => sql`${n}`),
      sql`, `,
    );
    const catalog = isPg
      ? sql`select count(*) as n from pg_trigger where tgname in (${listed}) and tgrelid = ${table}::regclass`
      : sql`select count(*) as n from sqlite_master where type = 'trigger' and tbl_name = ${table} and name in (${listed})`;
    answer = allIn<{ n: number | string }>(db, catalog).then(
      ([row]) => Number(row.n) === names.length,
      (err) => {
        known!.delete(resource.name); // a failed look is asked again by the next page, not kept
        throw err;
      },
    );
    known.set(resource.name, answer);
  }
  return answer;
}

/**
 * The id of the live row at `offset` (0-based) in id order, as a scalar subquery: the range holding it
 * from the counts, then at most a range's entries of the list's own index. Null past the end.
 * `base` are the list's own conditions (clinic and scope), on the resource's table.
 */
export function idAtOffset(resource: Resource, account: Placeholder, base: SQL[], offset: Placeholder): SQL {
  const t = resource.table;
  const ranges = sql`select ${counts.bucket} as bucket, ${counts.live} as live from ${counts}
      where ${counts.account_id} = ${account} and ${counts.entity} = ${resource.name}
    union all
    select ${changes.bucket}, ${changes.delta} from ${changes}
      where ${changes.account_id} = ${account} and ${changes.entity} = ${resource.name}`;
  return sql`(with c as (select bucket, cast(sum(live) as bigint) as live from (${ranges}) x group by bucket),
    r as (select bucket, live, cast(sum(live) over (order by bucket) as bigint) as upto from c),
    s as (select bucket * ${sql.raw(String(2 ** BUCKET_BITS))} as lo, ${offset} - (upto - live) as rest
      from r where upto > ${offset} order by bucket limit 1)
    select ${t.id} from ${t} where ${sql.join(base, sql` and `)} and ${t.id} >= (select lo from s)
    order by ${t.id} limit 1 offset coalesce((select rest from s), 0))`;
}
