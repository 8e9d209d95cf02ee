/**
 * Writes of the clinic's setup by staff in the portal (locations, appointment types, practitioners,
 * weekly hours): resources the REST API keeps read-only. The fields staff may send are the ones the
 * declarations mark `staff` (server/resources/*.ts); each write runs in one transaction with its
 * resource's checks, records the member in the audit trail and announces `{resource}.{action}` through
 * recordWrite, so webhooks and the events feed see it as they see the API's writes.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { practitioners } from '../../../db/schema';
import { notFound } from '../../errors';
import { changedFields, eventTypeOf, recordWrite } from '../../events/record';
import { EVENT_TYPES, type EventType } from '../../events/types';
import {
  recordOf,
  storedValues,
  type AnyResource,
  type AnyTable,
  type RecordType,
  type RowType,
  type StaffCreateInput,
  type StaffUpdateInput,
} from '../../resources/define';
import { findRow, getRow } from '../../resources/queries';
import { bumpDiaries, SETUP_DIARY } from '../scheduling/diary-version';
import { cascade } from '../cascade';
import { recorded, stamp, type WriteContext } from '../write-context';

export interface SetupHooks<R extends AnyResource> {
  /** Domain checks in the transaction: `before` is the stored row (null on create), `after` the record as it will read. */
  check?: (tx: Db, after: RecordType<R>, before: RowType<R> | null) => Promise<void>;
  /** Stored values staff do not send (defaults of a new record). */
  defaults?: Partial<R['table']['$inferInsert']>;
  /** Columns of computed attributes (column: false) from what staff sent: a decimal price stored in minor units. */
  stored?: (input: StaffUpdateInput<R>) => Partial<R['table']['$inferInsert']>;
}

/** Resources the event catalogue names (server/events/types.ts). */
const ANNOUNCING = new Set<string>(EVENT_TYPES.map((type) => type.slice(0, type.indexOf('.'))));

/**
 * The event a setup write announces: `${resource}.${action}` from the catalogue; null for a resource the
 * catalogue has no events for (billable_items, resources, form_templates: the specification lists none),
 * whose writes are audited and not announced.
 */
const announced = (resource: AnyResource, action: 'created' | 'updated' | 'deleted'): EventType | null =>
  ANNOUNCING.has(resource.name) ? eventTypeOf(resource.name, action) : null;

const capital = (s: string) => s[0].toUpperCase() + s.slice(1);

/**
 * Setup resources whose changes change free slots (hours, who offers what where, a type's length, rooms).
 * Payment methods, modalities, tags, referral sources and billable items do not: their writes leave the
 * availability cache standing.
 */
const CALENDAR_RESOURCES = new Set([
  'locations',
  'appointment_types',
  'practitioners',
  'practitioner_availabilities',
  'resources',
]);
const touchesCalendars = (resource: AnyResource) => CALENDAR_RESOURCES.has(resource.name);

/**
 * Every practitioner's diary counter moves, and the clinic's setup counter: a cached availability search
 * (server/domain/scheduling/availability.ts) is reused while its diaries' counters stand still, and a
 * change of setup (hours, who offers what, a type's length) changes the slots of diaries it never names
 * and who the candidates are (the setup counter makes the search plan again). Setup writes are rare and
 * the table small, so all of them move rather than working out which.
 */
export async function touchCalendars(tx: Db, accountId: number): Promise<void> {
  const ids = await tx
    .select({ id: practitioners.id })
    .from(practitioners)
    .where(eq(practitioners.account_id, accountId));
  await bumpDiaries(
    tx,
    accountId,
    ids.map((p) => ({ practitioner_id: p.id, resource_id: null })),
    [SETUP_DIARY],
  );
}

export async function createSetupRecord<R extends AnyResource>(
  w: WriteContext,
  resource: R,
  input: StaffCreateInput<R>,
  hooks: SetupHooks<R> = {},
): Promise<RecordType<R>> {
  const id = await w.db.transaction((tx) => insertSetupRow(tx, w, resource, input, hooks));
  return recordOf(resource, await getRow(w.db.db, resource, w.account.id, id));
}

/** createSetupRecord's write, inside a transaction of the caller's (several records in one: a day's hours copied). */
export async function insertSetupRow<R extends AnyResource>(
  tx: Db,
  w: WriteContext,
  resource: R,
  input: StaffCreateInput<R>,
  hooks: SetupHooks<R> = {},
): Promise<number> {
  const table: AnyTable = resource.table;
  const now = stamp(w);
  const values = {
    ...hooks.defaults,
    ...storedValues(resource, input, null, 'staff'),
    ...hooks.stored?.(input),
    account_id: w.account.id,
    created_at: now,
    updated_at: now,
  };
  // The values about to be stored read as the row will (columns not given read as null).
  await hooks.check?.(tx, recordOf(resource, values as RowType<R>), null);
  const [row] = await tx.insert(table).values(values).returning({ id: table.id });
  await recordWrite(tx, {
    ...recorded(w),
    entity: resource.name,
    entityId: Number(row.id),
    action: 'created',
    changes: input,
    eventType: announced(resource, 'created'),
  });
  if (touchesCalendars(resource)) await touchCalendars(tx, w.account.id);
  return Number(row.id);
}

export async function updateSetupRecord<R extends AnyResource>(
  w: WriteContext,
  resource: R,
  id: number,
  input: StaffUpdateInput<R>,
  hooks: SetupHooks<R> = {},
): Promise<RecordType<R>> {
  const table: AnyTable = resource.table;
  await w.db.transaction(async (tx) => {
    const before = await findRow(tx, resource, w.account.id, id);
    if (!before) throw notFound(capital(resource.singular));
    const set = { ...storedValues(resource, input, before, 'staff'), ...hooks.stored?.(input), updated_at: stamp(w) };
    // The stored row with the change over it: the row as it will read.
    await hooks.check?.(tx, recordOf(resource, { ...before, ...set } as RowType<R>), before);
    await tx
      .update(table)
      .set(set)
      .where(and(eq(table.account_id, w.account.id), eq(table.id, id)));
    const after = (await findRow(tx, resource, w.account.id, id))!;
    const changes = changedFields(resource.toRecord(before), resource.toRecord(after));
    delete changes.updated_at;
    // Saving a form unchanged is not a change: nothing to audit or announce.
    if (!Object.keys(changes).length) return;
    await recordWrite(tx, {
      ...recorded(w),
      entity: resource.name,
      entityId: id,
      action: 'updated',
      changes,
      eventType: announced(resource, 'updated'),
    });
    if (touchesCalendars(resource)) await touchCalendars(tx, w.account.id);
  });
  return recordOf(resource, await getRow(w.db.db, resource, w.account.id, id));
}

/**
 * Deletes a record unless `inUse` says why it must stay (a 409 with that reason). What follows it (a
 * practitioner's weekly hours: server/resources/follows.ts) goes with it, each announced on its own.
 */
export async function deleteSetupRecord<R extends AnyResource>(
  w: WriteContext,
  resource: R,
  id: number,
  hooks: { inUse?: (tx: Db, before: RowType<R>) => Promise<void> } = {},
): Promise<{ id: number; deleted: true }> {
  await w.db.transaction((tx) => removeSetupRow(tx, w, resource, id, hooks));
  return { id, deleted: true };
}

/** deleteSetupRecord's write, inside a transaction of the caller's. */
export async function removeSetupRow<R extends AnyResource>(
  tx: Db,
  w: WriteContext,
  resource: R,
  id: number,
  hooks: { inUse?: (tx: Db, before: RowType<R>) => Promise<void> } = {},
): Promise<void> {
  const table: AnyTable = resource.table;
  const before = await findRow(tx, resource, w.account.id, id);
  if (!before) throw notFound(capital(resource.singular));
  await hooks.inUse?.(tx, before);
  const at = stamp(w);
  await cascade(tx, w.account.id, resource.name, [id], at);
  await tx.delete(table).where(and(eq(table.account_id, w.account.id), eq(table.id, id)));
  await recordWrite(tx, {
    ...recorded(w),
    entity: resource.name,
    entityId: id,
    action: 'deleted',
    changes: resource.toRecord(before),
    eventType: announced(resource, 'deleted'),
  });
  if (touchesCalendars(resource)) await touchCalendars(tx, w.account.id);
}
