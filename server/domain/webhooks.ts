/**
 * Webhook endpoints and their messages: the same functions serve the CLI (`clinic webhook ...`) and the
 * portal. Every change goes to the activity log. Messages are created in the transaction of the event
 * they carry (fanOut, from server/events/record.ts), so an event is never lost between the write and the
 * delivery; the worker (server/webhooks/worker.ts) delivers them. A disabled endpoint's messages are held
 * (created, never attempted) until it is enabled again.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, gte, inArray, notInArray } from 'drizzle-orm';
import type { Db, DbHandle } from '../../db/client';
import { events, webhookAttempts, webhookEndpoints, webhookMessages } from '../../db/schema';
import type { Account } from '../context';
import { ApiError, invalid } from '../errors';
import { recordActivity, type Actor } from '../events/record';
import { dueAt, HELD, heldMessages, isHeld, pendingMessage } from '../events/fan-out';
import { isEventType, TEST_EVENT_TYPE } from '../events/types';
import { BlockedTarget, resolveTarget } from '../outbound';
import { open, seal } from '../auth/secrets';
import { ROTATION_GRACES, type RotationGrace } from './api_keys';

export interface EndpointInput {
  url: string;
  description?: string | null;
  /** 'all', or event types of the spec's table. */
  events: 'all' | string[];
}

const activity = (
  tx: Db,
  account: Account,
  actor: Actor,
  id: number,
  action: string,
  changes?: Record<string, unknown>,
) => recordActivity(tx, account.id, actor, 'webhook_endpoints', id, action, changes);

export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * What to do instead when the URL is a machine of one's own (a loopback or private address, plain http):
 * the test a person is usually after when they type localhost.
 */
const localHint = (why: string) =>
  /non-public address|only https/.test(why)
    ? '. To receive webhooks on your own computer, expose it through an https tunnel (for example `ngrok http 3000` or `cloudflared tunnel --url http://localhost:3000`) and use the tunnel’s https URL; a development server started with WEBHOOKS_ALLOW_PRIVATE=true accepts local URLs'
    : '';

async function checkInput(input: EndpointInput, allowPrivate: boolean) {
  if (input.url.length > 2000) throw invalid('url', 'must be at most 2000 characters');
  try {
    await resolveTarget(input.url, allowPrivate);
  } catch (err) {
    if (err instanceof BlockedTarget) throw invalid('url', err.message + localHint(err.message), 'invalid_input');
    throw err;
  }
  if (input.events !== 'all') {
    if (!input.events.length) throw invalid('events', 'choose at least one event type, or all');
    const unknown = input.events.filter((t) => !isEventType(t));
    if (unknown.length) throw invalid('events', `unknown event types: ${unknown.join(', ')}`);
  }
}

const endpointView = (e: typeof webhookEndpoints.$inferSelect) => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: e.event_types ?? ('all' as const),
  enabled: e.enabled,
  disabled_reason: e.disabled_reason,
  failing_since: e.failing_since,
  rotating_until:
    e.previous_expires_at && e.previous_expires_at > new Date().toISOString() ? e.previous_expires_at : null,
  created_at: e.created_at,
});
export type Endpoint = ReturnType<typeof endpointView>;

export async function createEndpoint(
  db: DbHandle,
  account: Account,
  actor: Actor,
  input: EndpointInput,
  allowPrivate: boolean,
) {
  await checkInput(input, allowPrivate);
  const secret = newSigningSecret();
  const now = new Date().toISOString();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        account_id: account.id,
        url: input.url,
        description: input.description ?? null,
        event_types: input.events === 'all' ? null : input.events,
        enabled: true,
        secret: seal(secret),
        created_at: now,
        updated_at: now,
      })
      .returning();
    await activity(tx, account, actor, row.id, 'created', { url: row.url, events: input.events });
    return { endpoint: endpointView(row), secret };
  });
}

export async function updateEndpoint(
  db: DbHandle,
  account: Account,
  actor: Actor,
  id: number,
  input: EndpointInput,
  allowPrivate: boolean,
) {
  await checkInput(input, allowPrivate);
  return db.transaction(async (tx) => {
    await endpointOrFail(tx, account.id, id);
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        url: input.url,
        description: input.description ?? null,
        event_types: input.events === 'all' ? null : input.events,
        updated_at: new Date().toISOString(),
      })
      .where(and(eq(webhookEndpoints.account_id, account.id), eq(webhookEndpoints.id, id)))
      .returning();
    await activity(tx, account, actor, id, 'updated', { url: row.url, events: input.events });
    return endpointView(row);
  });
}

async function endpointOrFail(tx: Db, accountId: number, id: number) {
  const [row] = await tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.account_id, accountId), eq(webhookEndpoints.id, id)));
  if (!row) throw new ApiError('not_found', `No webhook endpoint ${id} on this account`);
  return row;
}

export async function listEndpoints(db: Db, accountId: number) {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.account_id, accountId))
    .orderBy(asc(webhookEndpoints.id));
  return rows.map(endpointView);
}

/** The signing secret, for those permitted to see it. */
export async function endpointSecret(db: Db, accountId: number, id: number): Promise<string> {
  return open((await endpointOrFail(db, accountId, id)).secret);
}

/**
 * A new secret; for the grace (24 hours unless chosen: 1 hour, or none for a leaked secret) the previous
 * one signs every message too. The graces are the API keys' (one list, server/domain/api_keys.ts).
 */
export async function rotateSecret(
  db: DbHandle,
  account: Account,
  actor: Actor,
  id: number,
  grace: RotationGrace = '24h',
) {
  const secret = newSigningSecret();
  return db.transaction(async (tx) => {
    const row = await endpointOrFail(tx, account.id, id);
    const until = grace === 'now' ? null : new Date(Date.now() + ROTATION_GRACES[grace]).toISOString();
    await tx
      .update(webhookEndpoints)
      .set({
        secret: seal(secret),
        previous_secret: until ? row.secret : null,
        previous_expires_at: until,
        updated_at: new Date().toISOString(),
      })
      .where(and(eq(webhookEndpoints.account_id, account.id), eq(webhookEndpoints.id, id)));
    await activity(tx, account, actor, id, 'secret_rotated', { previous_secret_valid_until: until });
    return { secret, previous_valid_until: until };
  });
}

/** Enabling clears the failure streak and sends the held messages; disabling holds the pending ones until then. */
export async function setEndpointEnabled(
  db: DbHandle,
  account: Account,
  actor: Actor,
  id: number,
  enabled: boolean,
  reason: string | null = null,
) {
  return db.transaction(async (tx) => {
    const before = await endpointOrFail(tx, account.id, id);
    if (before.enabled === enabled) return endpointView(before);
    return endpointView(await switchEndpoint(tx, actor, before, enabled, reason, new Date().toISOString()));
  });
}

/**
 * Enables or disables an endpoint inside a transaction, with its activity-log entry: for members and
 * the CLI (above), and for the delivery worker when an endpoint answers 410 or keeps failing.
 * Disabling holds its pending messages (those in flight end as their attempt decides); enabling makes
 * the held ones due at once, all at the same time, so the worker claims them by id: oldest first.
 */
export async function switchEndpoint(
  tx: Db,
  actor: Actor,
  endpoint: typeof webhookEndpoints.$inferSelect,
  enabled: boolean,
  reason: string | null,
  at: string,
) {
  const [row] = await tx
    .update(webhookEndpoints)
    .set({
      enabled,
      disabled_reason: enabled ? null : reason,
      ...(enabled ? { failing_since: null } : {}),
      updated_at: at,
    })
    .where(and(eq(webhookEndpoints.account_id, endpoint.account_id), eq(webhookEndpoints.id, endpoint.id)))
    .returning();
  const ofEndpoint = and(
    eq(webhookMessages.account_id, endpoint.account_id),
    eq(webhookMessages.endpoint_id, endpoint.id),
  );
  if (enabled)
    await tx.update(webhookMessages).set({ next_attempt_at: at, updated_at: at }).where(and(ofEndpoint, heldMessages));
  else
    await tx
      .update(webhookMessages)
      .set({ ...HELD, updated_at: at })
      .where(and(ofEndpoint, eq(webhookMessages.status, 'pending')));
  await recordActivity(
    tx,
    endpoint.account_id,
    actor,
    'webhook_endpoints',
    endpoint.id,
    enabled ? 'enabled' : 'disabled',
    reason ? { reason } : undefined,
  );
  return row;
}

export async function deleteEndpoint(db: DbHandle, account: Account, actor: Actor, id: number) {
  await db.transaction(async (tx) => {
    await endpointOrFail(tx, account.id, id);
    await tx
      .delete(webhookMessages)
      .where(and(eq(webhookMessages.account_id, account.id), eq(webhookMessages.endpoint_id, id)));
    await tx
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.account_id, account.id), eq(webhookEndpoints.id, id)));
    await activity(tx, account, actor, id, 'deleted');
  });
}

/**
 * Sends an event again now: to one endpoint, or to every endpoint that got it. A message is made from
 * the outbox when the endpoint never had one (subscribed later, or filtered then).
 */
export async function replayEvent(db: DbHandle, account: Account, actor: Actor, eventId: string, endpointId?: number) {
  return db.transaction(async (tx) => {
    const [event] = await tx
      .select()
      .from(events)
      .where(and(eq(events.account_id, account.id), eq(events.event_id, eventId)));
    const existing = await tx
      .select()
      .from(webhookMessages)
      .where(
        and(
          eq(webhookMessages.account_id, account.id),
          eq(webhookMessages.event_id, eventId),
          endpointId ? eq(webhookMessages.endpoint_id, endpointId) : undefined,
        ),
      );
    if (!event && !existing.length) throw new ApiError('not_found', `No event ${eventId} on this account`);
    const now = new Date().toISOString();
    const ids = existing.map((m) => m.id);
    if (ids.length) {
      // Due now; held instead where the endpoint is disabled (sent when it is enabled).
      const enabled = tx
        .select({ id: webhookEndpoints.id })
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.account_id, account.id), eq(webhookEndpoints.enabled, true)));
      const again = { status: 'pending' as const, lease_until: null, next_trigger: 'manual' as const, updated_at: now };
      await tx
        .update(webhookMessages)
        .set({ ...again, next_attempt_at: now })
        .where(
          and(
            eq(webhookMessages.account_id, account.id),
            inArray(webhookMessages.id, ids),
            inArray(webhookMessages.endpoint_id, enabled),
          ),
        );
      await tx
        .update(webhookMessages)
        .set({ ...again, ...HELD })
        .where(
          and(
            eq(webhookMessages.account_id, account.id),
            inArray(webhookMessages.id, ids),
            notInArray(webhookMessages.endpoint_id, enabled),
          ),
        );
    }
    if (!ids.length && endpointId && event) {
      const endpoint = await endpointOrFail(tx, account.id, endpointId);
      const [m] = await tx
        .insert(webhookMessages)
        .values(pendingMessage(account.id, endpointId, event, now, 'manual', dueAt(endpoint, now)))
        .returning({ id: webhookMessages.id });
      ids.push(m.id);
    }
    if (!ids.length)
      throw new ApiError('not_found', `Event ${eventId} was sent to no endpoint: name one with --endpoint-id`);
    await activity(tx, account, actor, endpointId ?? 0, 'replayed', { event_id: eventId, messages: ids.length });
    return { messages: ids.length };
  });
}

/** The messages a recovery sends again: the endpoint's failed ones created since the time (the portal counts them first). */
export const recoverable = (accountId: number, endpointId: number, since: string) =>
  and(
    eq(webhookMessages.account_id, accountId),
    eq(webhookMessages.endpoint_id, endpointId),
    eq(webhookMessages.status, 'failed'),
    gte(webhookMessages.created_at, since),
  );

/**
 * Failed messages of an endpoint since a time are queued again (after an outage, on re-enabling): due
 * now, oldest first (same due time, claimed by id), or held until a disabled endpoint is enabled.
 */
export async function recoverSince(db: DbHandle, account: Account, actor: Actor, endpointId: number, since: string) {
  return db.transaction(async (tx) => {
    const endpoint = await endpointOrFail(tx, account.id, endpointId);
    const now = new Date().toISOString();
    const rows = await tx
      .update(webhookMessages)
      .set({
        status: 'pending',
        attempts: 0,
        next_attempt_at: dueAt(endpoint, now),
        lease_until: null,
        next_trigger: 'manual',
        updated_at: now,
      })
      .where(recoverable(account.id, endpointId, since))
      .returning({ id: webhookMessages.id });
    await activity(tx, account, actor, endpointId, 'recovered', { since, messages: rows.length });
    return { messages: rows.length };
  });
}

/** A test event for one endpoint, queued for delivery now. */
export async function sendTestEvent(db: DbHandle, account: Account, actor: Actor, endpointId: number) {
  return db.transaction(async (tx) => {
    const endpoint = await endpointOrFail(tx, account.id, endpointId);
    const now = new Date().toISOString();
    const eventId = randomUUID();
    const [m] = await tx
      .insert(webhookMessages)
      .values(
        pendingMessage(
          account.id,
          endpointId,
          {
            event_id: eventId,
            type: TEST_EVENT_TYPE,
            occurred_at: now,
            entity: 'webhook_endpoints',
            entity_id: endpointId,
          },
          now,
          null,
          dueAt(endpoint, now),
        ),
      )
      .returning({ id: webhookMessages.id });
    await activity(tx, account, actor, endpointId, 'test_sent', { event_id: eventId });
    return { event_id: eventId, message_id: m.id };
  });
}

/** Per endpoint: messages delivered and failed in the last 30 days (the portal's success rate). */
export async function deliveryCounts(db: Db, accountId: number) {
  const since = new Date(Date.now() - 30 * 86_400_000).toISOString();
  const rows = await db
    .select({ endpoint_id: webhookMessages.endpoint_id, status: webhookMessages.status, n: count() })
    .from(webhookMessages)
    .where(and(eq(webhookMessages.account_id, accountId), gte(webhookMessages.created_at, since)))
    .groupBy(webhookMessages.endpoint_id, webhookMessages.status);
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

/**
 * An endpoint's messages, newest first, with their attempts. A message that waits for its disabled
 * endpoint reads `waiting` (held, or pending when it was disabled mid-attempt): no attempt is due.
 */
export async function listMessages(db: Db, accountId: number, endpointId: number, limit = 50) {
  const endpoint = await endpointOrFail(db, accountId, endpointId);
  const messages = await db
    .select()
    .from(webhookMessages)
    .where(and(eq(webhookMessages.account_id, accountId), eq(webhookMessages.endpoint_id, endpointId)))
    .orderBy(desc(webhookMessages.id))
    .limit(limit);
  const attempts = messages.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          and(
            eq(webhookAttempts.account_id, accountId),
            inArray(
              webhookAttempts.message_id,
              messages.map((m) => m.id),
            ),
          ),
        )
        .orderBy(asc(webhookAttempts.id))
    : [];
  return messages.map((m) => {
    const waiting = isHeld(m) || (m.status === 'pending' && !endpoint.enabled);
    return {
      id: m.id,
      event_id: m.event_id,
      event_type: m.event_type,
      status: waiting ? ('waiting' as const) : m.status,
      attempts: attempts
        .filter((a) => a.message_id === m.id)
        .map(({ id, trigger, status_code, duration_ms, response_body, error, created_at }) => ({
          id,
          trigger,
          status_code,
          duration_ms,
          response_body,
          error,
          created_at,
        })),
      next_attempt_at: m.status === 'pending' && !waiting ? m.next_attempt_at : null,
      created_at: m.created_at,
    };
  });
}
