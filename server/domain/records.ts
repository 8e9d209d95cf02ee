/**
 * Writes of resources without rules of their own beyond their declaration (referral sources,
 * timeline entries...): insert or patch the row, merge metadata, and record the audit entry and event
 * in the same transaction. Resource-specific checks run first, inside that transaction.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { changedFields, eventTypeOf, recordWrite } from '../events/record';
import {
  storedValues,
  type AnyResource,
  type AnyTable,
  type CreateInput,
  type RowType,
  type UpdateInput,
} from '../resources/define';
import { findRow, getRow } from '../resources/queries';
import { notFound } from '../errors';
import { recorded, stamp, type WriteContext } from './write-context';

export interface WriteHooks<R extends AnyResource> {
  /** Domain checks before the write, in the transaction; `before` is the stored row on update. */
  check?: (tx: Db, before: RowType<R> | null) => Promise<void>;
  /** Stored values the client does not send (defaults, derived columns). */
  defaults?: Partial<R['table']['$inferInsert']>;
}

export async function createRecord<R extends AnyResource>(
  w: WriteContext,
  resource: R,
  input: CreateInput<R>,
  hooks: WriteHooks<R> = {},
) {
  const table: AnyTable = resource.table;
  const id = await w.db.transaction(async (tx) => {
    await hooks.check?.(tx, null);
    const now = stamp(w);
    // created_at is writable only where a resource declares it (historical imports); it is stored canonical.
    const sent = storedValues(resource, input, null);
    const createdAt = typeof sent.created_at === 'string' ? new Date(sent.created_at).toISOString() : now;
    const values = { ...hooks.defaults, ...sent, account_id: w.account.id, created_at: createdAt, updated_at: now };
    const [row] = await tx.insert(table).values(values).returning({ id: table.id });
    await recordWrite(tx, {
      ...recorded(w),
      entity: resource.name,
      entityId: Number(row.id),
      action: 'created',
      changes: input,
      eventType: eventTypeOf(resource.name, 'created'),
    });
    return Number(row.id);
  });
  return resource.toRecord(await getRow(w.db.db, resource, w.account.id, id));
}

export async function updateRecord<R extends AnyResource>(
  w: WriteContext,
  resource: R,
  id: number,
  input: UpdateInput<R>,
  hooks: WriteHooks<R> = {},
) {
  const table: AnyTable = resource.table;
  await w.db.transaction(async (tx) => {
    const before = await findRow(tx, resource, w.account.id, id);
    if (!before) throw notFound();
    await hooks.check?.(tx, before);
    const set = { ...storedValues(resource, input, before), updated_at: stamp(w) };
    await tx
      .update(table)
      .set(set)
      .where(and(eq(table.account_id, w.account.id), eq(table.id, id)));
    const after = (await findRow(tx, resource, w.account.id, id))!;
    await recordWrite(tx, {
      ...recorded(w),
      entity: resource.name,
      entityId: id,
      action: 'updated',
      changes: changedFields(resource.toRecord(before), resource.toRecord(after)),
      eventType: eventTypeOf(resource.name, 'updated'),
    });
  });
  return resource.toRecord(await getRow(w.db.db, resource, w.account.id, id));
}
