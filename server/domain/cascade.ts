/**
 * What goes with a record's delete or void: every record that follows it (declared on the resources,
 * server/resources/follows.ts), and what follows those. Each is announced in the parent's transaction —
 * its own `.deleted` event where the catalogue has one, else through the parent's event (an invoice's
 * lines through `invoices.deleted`) — and gets its deleted_entities row where it can be read, so a
 * mirror built from webhooks, the feed or polling loses it too. Followers of a soft-removed parent stay
 * stored, hidden by their scope; those of a parent deleted for good are deleted with it.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { chunks } from '../events/fan-out';
import { announceGone } from '../events/record';
import { isEventType } from '../events/types';
import { RESOURCES } from '../resources';
import type { AnyResource, AnyTable } from '../resources/define';
import { softRoot } from '../resources/follows';

/** The resources that follow each parent, by the parent's name, with the column that names the parent. */
const followers = new Map<string, { child: AnyResource; column: PgColumn }[]>();
for (const child of Object.values(RESOURCES)) {
  if (!child.follows) continue;
  const { parent, column: name } = child.follows;
  const column: PgColumn | undefined = child.columns[name];
  if (!column) throw new Error(`${child.name} follows ${parent.name} by ${name}, which its table does not have`);
  followers.set(parent.name, [...(followers.get(parent.name) ?? []), { child, column }]);
}

/**
 * Announces (and, under a hard-deleted parent, deletes) what follows `parentIds` of `parent`, in the
 * caller's transaction. Returns how many of each went, for the parent's audit entry.
 */
export async function cascade(
  tx: Db,
  accountId: number,
  parent: string,
  parentIds: number[],
  at: string,
): Promise<Record<string, number>> {
  const gone: Record<string, number> = {};
  for (const { child, column } of followers.get(parent) ?? []) {
    const table: AnyTable = child.table;
    const ids: number[] = [];
    for (const some of chunks(parentIds)) {
      const rows = await tx
        .select({ id: table.id })
        .from(table)
        .where(and(eq(table.account_id, accountId), inArray(column, some)));
      ids.push(...rows.map((r) => Number(r.id)));
    }
    if (!ids.length) continue;
    // Deeper followers first: their rows name these ones.
    for (const [name, n] of Object.entries(await cascade(tx, accountId, child.name, ids, at))) gone[name] = n;
    if (!softRoot(child.follows!)) {
      for (const some of chunks(ids)) {
        await tx.delete(table).where(and(eq(table.account_id, accountId), inArray(table.id, some)));
      }
    }
    const event = `${child.name}.deleted`;
    await announceGone(tx, accountId, child.name, ids, at, {
      tombstone: child.read || child.list,
      announced: isEventType(event) ? event : null,
    });
    gone[child.name] = ids.length;
  }
  return gone;
}
