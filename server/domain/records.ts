/**
 * Writes of resources without rules of their own beyond their declaration (referral sources,
 * timeline entries...): insert or patch the row, merge metadata, and record the audit entry and event
 * in the same transaction. Resource-specific checks run first, inside that transaction.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { changedFields, recordWrite } from '../events/record';
import type { Resource, Row } from '../resources/define';
import { mergedMetadataOrFail, type Metadata } from '../resources/metadata';
import { findRow, getRow } from '../resources/queries';
import { notFound } from '../errors';
import { recorded, type WriteContext } from './write-context';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Input = Record<string, any>;

export interface WriteHooks {
  /** Domain checks before the write, in the transaction; `before` is the stored row on update. */
  check?: (tx: Db, input: Input, before: Row | null) => Promise<void>;
  /** Stored values the client does not send (defaults, derived columns). */
  defaults?: Record<string, unknown>;
}

export async function createRecord(w: WriteContext, resource: Resource, input: Input, hooks: WriteHooks = {}): Promise<Record<string, unknown>> {
  const id = await w.db.transaction(async (tx) => {
    await hooks.check?.(tx, input, null);
    const now = new Date().toISOString();
    // created_at is writable only where a resource declares it (historical imports); it is stored canonical.
    const createdAt = input.created_at ? new Date(input.created_at).toISOString() : now;
    const values = { ...hooks.defaults, ...input, account_id: w.account.id, metadata: mergedMetadataOrFail({}, input.metadata), created_at: createdAt, updated_at: now };
    const [row] = (await tx.insert(resource.table).values(values).returning({ id: resource.table.id })) as { id: number }[];
    await recordWrite(tx, { ...recorded(w), entity: resource.name, entityId: row.id, action: 'created', changes: input });
    return row.id;
  });
  return resource.toRecord(await getRow(w.db.db, resource, w.account.id, id));
}

export async function updateRecord(w: WriteContext, resource: Resource, id: number, input: Input, hooks: WriteHooks = {}): Promise<Record<string, unknown>> {
  await w.db.transaction(async (tx) => {
    const before = await findRow(tx, resource, w.account.id, id);
    if (!before) throw notFound();
    await hooks.check?.(tx, input, before);
    const set: Input = { ...input, updated_at: new Date().toISOString() };
    if (input.metadata !== undefined) set.metadata = mergedMetadataOrFail(before.metadata as Metadata, input.metadata);
    await tx
      .update(resource.table)
      .set(set)
      .where(and(eq(resource.table.account_id, w.account.id), eq(resource.table.id, id)));
    const after = (await findRow(tx, resource, w.account.id, id))!;
    await recordWrite(tx, {
      ...recorded(w),
      entity: resource.name,
      entityId: id,
      action: 'updated',
      changes: changedFields(resource.toRecord(before), resource.toRecord(after)),
    });
  });
  return resource.toRecord(await getRow(w.db.db, resource, w.account.id, id));
}
