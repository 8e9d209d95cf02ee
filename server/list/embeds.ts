/**
 * The embedded records of a list page, in one statement for the whole page (db/json.ts embedBatch)
 * instead of one correlated subquery per row and embed.
 */
import type { Db } from '../../db/client';
import { fromDbJson } from '../../db/dialect';
import { embedBatch, embedKeys, keysParam, parentColumnOf } from '../../db/json';
import { prepared } from '../../db/prepared';
import type { Resource, Row } from '../resources/define';

/** Sets each embed on each row, as a single read selects it: an array ([] for none) or an object or null. */
export async function loadEmbeds(db: Db, resource: Resource, accountId: number, rows: Row[]): Promise<void> {
  if (!resource.embeds || rows.length === 0) return;
  const embeds = Object.entries(resource.embeds);
  const parentColumns = [...new Set(embeds.map(([, e]) => parentColumnOf(e)))];
  const placeholders: Record<string, unknown> = { account: accountId };
  for (const column of parentColumns) {
    const keys = [...new Set(rows.map((r) => r[column]).filter((v): v is number => typeof v === 'number'))];
    placeholders[keysParam(column)] = embedKeys(keys);
  }
  // Per embed (by position), the items of each owner.
  const found = embeds.map(() => new Map<number, unknown[]>());
  const query = prepared(db, `embeds:${resource.name}`, () =>
    embedBatch(
      db,
      embeds.map(([, e]) => e),
    ),
  );
  for (const { embed, owner, item } of await query.execute(placeholders)) {
    const byOwner = found[embed];
    const items = byOwner.get(owner);
    if (items) items.push(fromDbJson(item));
    else byOwner.set(owner, [fromDbJson(item)]);
  }
  embeds.forEach(([name, embed], i) => {
    const column = parentColumnOf(embed);
    for (const row of rows) {
      const items = found[i].get(row[column] as number) ?? [];
      row[name] = embed.orderBy ? items : (items[0] ?? null);
    }
  });
}
