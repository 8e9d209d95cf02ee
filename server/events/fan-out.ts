/**
 * Webhook messages for an event, written in the transaction of the event itself (announce, in
 * server/events/record.ts): one per enabled endpoint of the account subscribed to its type. Nothing
 * announced can then be lost between the write and the delivery (server/webhooks/worker.ts).
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { webhookEndpoints, webhookMessages } from '../../db/schema';

export interface OutboxEvent {
  event_id: string;
  type: string;
  occurred_at: string;
  entity: string;
  entity_id: number;
}

/** The thin payload of the specification: never the record itself. */
const payloadOf = (e: OutboxEvent) =>
  JSON.stringify({ id: e.event_id, type: e.type, occurred_at: e.occurred_at, data: { entity: e.entity, id: e.entity_id } });

/** A pending message of an event for one endpoint, due at `at` (replays and tests are `manual` then). */
export const pendingMessage = (accountId: number, endpointId: number, event: OutboxEvent, at: string, trigger: 'manual' | null = null) => ({
  account_id: accountId,
  endpoint_id: endpointId,
  event_id: event.event_id,
  event_type: event.type,
  payload: payloadOf(event),
  status: 'pending' as const,
  attempts: 0,
  next_attempt_at: at,
  next_trigger: trigger,
  created_at: at,
  updated_at: at,
});

/** Messages for an event just written, one per enabled endpoint subscribed to its type; in its transaction. */
export async function fanOut(tx: Db, accountId: number, event: OutboxEvent) {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, types: webhookEndpoints.event_types })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.account_id, accountId), eq(webhookEndpoints.enabled, true)));
  const subscribed = endpoints.filter((e) => e.types === null || e.types.includes(event.type));
  if (!subscribed.length) return;
  await tx.insert(webhookMessages).values(subscribed.map((e) => pendingMessage(accountId, e.id, event, event.occurred_at)));
}

