import { id, index, int, table, text, timestamp, ref } from '../dialect';
import type { AttemptTrigger } from './webhook_attempts';

export type MessageStatus = 'pending' | 'delivered' | 'failed';

/**
 * One event for one endpoint: written in the transaction of the event itself (server/events/record.ts),
 * so nothing announced is ever missed, and claimed by a delivery worker with a lease: a worker that dies
 * mid-delivery leaves a lease that expires, and the message is claimed again.
 */
export const webhookMessages = table(
  'webhook_messages',
  {
    id: id(),
    account_id: ref().notNull(),
    endpoint_id: ref().notNull(),
    event_id: text().notNull(),
    event_type: text().notNull(),
    /** The exact body sent (signed as is). */
    payload: text().notNull(),
    status: text<MessageStatus>().notNull(),
    attempts: int().notNull(),
    next_attempt_at: timestamp(),
    lease_until: timestamp(),
    last_status: int(),
    /** Why the next attempt happens when not the schedule: `manual` after a replay or a recovery. */
    next_trigger: text<AttemptTrigger>(),
    created_at: timestamp().notNull(),
    updated_at: timestamp().notNull(),
  },
  (t) => [
    index('webhook_messages_due_idx').on(t.status, t.next_attempt_at),
    index('webhook_messages_endpoint_idx').on(t.account_id, t.endpoint_id, t.id),
    index('webhook_messages_event_idx').on(t.account_id, t.event_id),
    // An endpoint's messages filtered by status or by event type, newest first, a page at a time (the portal).
    index('webhook_messages_endpoint_status_idx').on(t.account_id, t.endpoint_id, t.status, t.id),
    index('webhook_messages_endpoint_type_idx').on(t.account_id, t.endpoint_id, t.event_type, t.id),
    // The retention sweep: settled messages by their last attempt (pending ones are a range it never reads).
    index('webhook_messages_sweep_idx').on(t.status, t.updated_at),
  ],
);
