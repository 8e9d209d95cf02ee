/**
 * Every write ends here, inside its transaction: one audit entry, one outbox event, and for deletes
 * and voids a deleted_entities row. One call per operation, however many rows it saved, so an
 * operation announces itself exactly once.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';
import { markAnnounced } from '../../db/commits';
import { auditLog, deletedEntities, events } from '../../db/schema';
import { chunks, fanOut } from './fan-out';
import { isEventType, type EventEntity, type EventType } from './types';

export interface Actor {
  actor_type: 'api_key' | 'user' | 'system' | 'connector';
  actor_id: number | null;
  actor_name: string;
}

/** A team member as the actor of what they do themselves (the portal, a sign-in, a link they used). */
export const memberActor = (m: { id: number; name: string }): Actor => ({
  actor_type: 'user',
  actor_id: m.id,
  actor_name: m.name,
});

export interface WriteRecord<E extends string = string, A extends string = string> {
  accountId: number;
  actor: Actor;
  requestId?: string;
  /** Resource name, e.g. patients. */
  entity: E;
  entityId: number;
  /** Event verb: created, updated, deleted, or a resource-specific one (cancelled, ...). */
  action: A;
  changes?: Record<string, unknown>;
  /** Announce under another type than `${entity}.${action}` (e.g. patient_tags announce patients.updated); null: none. */
  eventType?: EventType | null;
  eventEntity?: string;
  eventEntityId?: number;
  /** When it happened, on the app's clock (server/domain/write-context.ts `recorded`); now by default. */
  at?: string;
}

/** A write whose `${entity}.${action}` is not a catalogued type must name its event (or null): else it does not compile. */
type NamesItsEvent<E extends string, A extends string> = `${E}.${A}` extends EventType
  ? unknown
  : { eventType: EventType | null };

/**
 * The catalogued type `${entity}.${action}`, for writes generic over resources (server/domain/records.ts),
 * whose names the compiler cannot see. An uncatalogued one is a programming error, refused before
 * anything is announced; server/test/events.catalogue.test.ts calls every write route to find one first.
 */
export function eventTypeOf(entity: string, action: string): EventType {
  const type = `${entity}.${action}`;
  if (!isEventType(type)) throw new Error(`${type} is not in the event catalogue (server/events/types.ts)`);
  return type;
}

export async function recordWrite<E extends string, A extends string>(
  tx: Db,
  w: WriteRecord<E, A> & NamesItsEvent<E, A>,
): Promise<void> {
  const now = w.at ?? new Date().toISOString();
  await tx.insert(auditLog).values({
    account_id: w.accountId,
    ...w.actor,
    action: w.action,
    entity: w.entity,
    entity_id: w.entityId,
    changes: w.changes ?? null,
    request_id: w.requestId ?? null,
    created_at: now,
  });
  if (w.eventType !== null) {
    // Without eventType, `${entity}.${action}` is a catalogued type: NamesItsEvent made sure of it.
    await announce(
      tx,
      w.accountId,
      w.eventType ?? (`${w.entity}.${w.action}` as EventType),
      w.eventEntity ?? w.entity,
      w.eventEntityId ?? w.entityId,
      now,
    );
  }
  if (w.action === 'deleted') await markDeleted(tx, w.accountId, w.entity, w.entityId, now);
}

/**
 * An entry of the account activity log with no outbox event: changes to the people side of the account
 * (keys, members, roles, sign-ins, webhook endpoints), which are not records of the API's resources.
 */
export function recordActivity(
  tx: Db,
  accountId: number,
  actor: Actor,
  entity: string,
  entityId: number,
  action: string,
  changes?: Record<string, unknown>,
): Promise<void> {
  return recordWrite(tx, { accountId, actor, entity, entityId, action, changes, eventType: null });
}

/** An outbox event alone, for records saved as part of another record's operation (a patient's numbers). */
export async function announce(
  tx: Db,
  accountId: number,
  type: EventType,
  entity: string,
  entityId: number,
  at = new Date().toISOString(),
) {
  const event = { event_id: randomUUID(), type, entity, entity_id: entityId, occurred_at: at };
  await tx.insert(events).values({ ...event, account_id: accountId });
  markAnnounced(tx);
  await fanOut(tx, accountId, event);
}

/** The resources with a `.deleted` event. */
type DeletedEntity = { [E in EventEntity]: `${E}.deleted` extends EventType ? E : never }[EventEntity];

/** A record removed as part of another record's operation (a released allocation): tombstone and event. */
export async function announceDeleted(
  tx: Db,
  accountId: number,
  entity: DeletedEntity,
  entityId: number,
  at = new Date().toISOString(),
) {
  await markDeleted(tx, accountId, entity, entityId, at);
  await announce(tx, accountId, `${entity}.deleted`, entity, entityId, at);
}

/**
 * Records gone as part of another record's operation, many at once (a deleted patient's timeline):
 * a tombstone each where `tombstone`, and their `.deleted` event each where `announced` (else the
 * parent's event announces them), in statements of bounded size.
 */
export async function announceGone(
  tx: Db,
  accountId: number,
  entity: string,
  ids: number[],
  at: string,
  { tombstone, announced }: { tombstone: boolean; announced: EventType | null },
) {
  if (tombstone) {
    const rows = ids.map((id) => ({ account_id: accountId, entity, entity_id: id, deleted_at: at }));
    for (const chunk of chunks(rows)) await tx.insert(deletedEntities).values(chunk);
  }
  if (!announced) return;
  const batch = ids.map((id) => ({ event_id: randomUUID(), type: announced, entity, entity_id: id, occurred_at: at }));
  for (const chunk of chunks(batch)) {
    await tx.insert(events).values(chunk.map((e) => ({ ...e, account_id: accountId })));
    markAnnounced(tx);
    await fanOut(tx, accountId, ...chunk);
  }
}

export async function markDeleted(
  tx: Db,
  accountId: number,
  entity: string,
  entityId: number,
  at = new Date().toISOString(),
) {
  await tx.insert(deletedEntities).values({ account_id: accountId, entity, entity_id: entityId, deleted_at: at });
}

/** The attributes whose values differ between two records, for the audit trail. */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const k of Object.keys(after)) {
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k]))
      out[k] = { from: before[k] ?? null, to: after[k] ?? null };
  }
  return out;
}
