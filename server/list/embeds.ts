/**
 * The embedded records of a list page, one statement per embed for the whole page (db/json.ts
 * embedBatch) instead of one correlated subquery per row and embed.
 */
import type { Db } from '../../db/client';
import { fromDbJson } from '../../db/dialect';
import { embedBatch, embedKeys } from '../../db/json';
import { prepared } from '../../db/prepared';
import type { Resource, Row } from '../resources/define';

/** Sets each embed on each row, as a single read selects it: an array ([] for none) or an object or null. */
export async function loadEmbeds(db: Db, resource: Resource, accountId: number, rows: Row[]): Promise<void> {
  if (!resource.embeds || rows.length === 0) return;
  await Promise.all(
    Object.entries(resource.embeds).map(async ([name, embed]) => {
      const column = embed.parentColumn ?? 'id';
      const keys = [...new Set(rows.map((r) => r[column]).filter((v): v is number => typeof v === 'number'))];
      const byOwner = new Map<number, unknown[]>();
      if (keys.length > 0) {
        const query = prepared(db, `embed:${resource.name}.${name}`, () => embedBatch(db, embed));
        for (const { owner, item } of await query.execute({ account: accountId, keys: embedKeys(keys) })) {
          const items = byOwner.get(owner);
          if (items) items.push(fromDbJson(item));
          else byOwner.set(owner, [fromDbJson(item)]);
        }
      }
      for (const row of rows) {
        const items = byOwner.get(row[column] as number) ?? [];
        row[name] = embed.orderBy ? items : (items[0] ?? null);
      }
    }),
  );
}
