/**
 * Webhook messages for an event, written in the transaction of the event itself (announce, in
 * server/events/record.ts): one per endpoint of the account subscribed to its type, enabled or not.
 * Nothing announced can then be lost between the write and the delivery (server/webhooks/worker.ts),
 * nor while an endpoint is disabled: its messages are held until it is enabled again.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { webhookEndpoints, webhookMessages } from '../../db/schema';

export interface OutboxEvent {
  event_id: string;
  /** A catalogued type when announced (EventType); read back from the outbox or a test event, a string. */
  type: string;
  occurred_at: string;
  entity: string;
  entity_id: number;
}

/** The thin payload of the specification: never the record itself. */
const payloadOf = (e: OutboxEvent) =>
  JSON.stringify({
    id: e.event_id,
    type: e.type,
    occurred_at: e.occurred_at,
    data: { entity: e.entity, id: e.entity_id },
  });

/**
 * A held message: pending, but due at no time, so no worker claims it (the claim asks for a due time
 * at or before now). It waits for its disabled endpoint; enabling gives it a due time.
 */
export const HELD = { status: 'pending' as const, next_attempt_at: null };
/** The condition of held messages, in SQL. */
export const heldMessages = and(eq(webhookMessages.status, HELD.status), isNull(webhookMessages.next_attempt_at));
export const isHeld = (m: { status: string; next_attempt_at: string | null }) =>
  m.status === HELD.status && m.next_attempt_at === null;

/** When a message for an endpoint is due: at `at`, or never while the endpoint is disabled (held). */
export const dueAt = (endpoint: { enabled: boolean }, at: string) => (endpoint.enabled ? at : HELD.next_attempt_at);

/** A pending message of an event for one endpoint, due at `due` (held when null; replays and tests are `manual`). */
export const pendingMessage = (
  accountId: number,
  endpointId: number,
  event: OutboxEvent,
  at: string,
  trigger: 'manual' | null = null,
  due: string | null = at,
) => ({
  account_id: accountId,
  endpoint_id: endpointId,
  event_id: event.event_id,
  event_type: event.type,
  payload: payloadOf(event),
  status: 'pending' as const,
  attempts: 0,
  next_attempt_at: due,
  next_trigger: trigger,
  created_at: at,
  updated_at: at,
});

/** Messages for events just written, one per endpoint subscribed to each type (held for disabled ones); in their transaction. */
export async function fanOut(tx: Db, accountId: number, ...batch: OutboxEvent[]) {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, types: webhookEndpoints.event_types, enabled: webhookEndpoints.enabled })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.account_id, accountId));
  if (!endpoints.length) return;
  const messages = batch.flatMap((event) =>
    endpoints
      .filter((e) => e.types === null || e.types.includes(event.type))
      .map((e) => pendingMessage(accountId, e.id, event, event.occurred_at, null, dueAt(e, event.occurred_at))),
  );
  for (const chunk of chunks(messages)) await tx.insert(webhookMessages).values(chunk);
}

/** Rows in statements of at most 500 (bounded parameters per statement on both databases). */
export function chunks<T>(rows: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}
