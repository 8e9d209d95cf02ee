/**
 * Webhook endpoints in the portal (Manage webhooks): the same domain functions as `clinic webhook ...`,
 * and the reads of an endpoint's page (server/domain/webhook-deliveries.ts). Every procedure needs
 * webhooks.manage and reads or changes this clinic's endpoints only: another clinic's id is not found.
 */
import { z } from 'zod';
import { calendarTimestamp } from '../../values/calendar';
import { namesOf } from '../../values/keys';
import {
  deliveryStats,
  endpointOrNotFound,
  lastAttempts,
  MESSAGE_STATUSES,
  messageDetail,
  messagePage,
  recoverCount,
  STATS_RANGES,
} from '../../domain/webhook-deliveries';
import { EVENT_CATALOGUE, EVENT_TYPES, isEventType, TEST_EVENT_TYPE } from '../../events/types';
import {
  createEndpoint,
  deleteEndpoint,
  deliveryCounts,
  endpointSecret,
  listEndpoints,
  listMessages,
  recoverSince,
  replayEvent,
  rotateSecret,
  sendTestEvent,
  setEndpointEnabled,
  updateEndpoint,
} from '../../domain/webhooks';
import { router } from '../../trpc';
import { permitted } from './base';
import { recordId } from '../../resources/fields';
import { rotationGraceInput } from '../../domain/api_keys';

const manage = permitted('webhooks.manage');
const endpointId = recordId;
const MESSAGES_PER_PAGE = 25;
const since = calendarTimestamp({ offset: true });
const endpointInput = z.strictObject({
  url: z.string().trim().min(1, 'Enter the URL of your endpoint').max(2000),
  description: z.string().trim().max(500).nullable().optional(),
  events: z.union([
    z.literal('all'),
    z.array(z.string()).min(1, 'Choose at least one event type, or all').max(EVENT_TYPES.length),
  ]),
});

export const webhooksRouter = router({
  list: manage.query(async ({ ctx }) => {
    const endpoints = await listEndpoints(ctx.db.db, ctx.account.id);
    const [counts, last] = await Promise.all([
      deliveryCounts(ctx.db.db, ctx.account.id),
      lastAttempts(
        ctx.db.db,
        ctx.account.id,
        endpoints.map((e) => e.id),
      ),
    ]);
    return {
      // Each type with whether anything fires it today: the chooser says which never fire yet, and why.
      event_types: EVENT_CATALOGUE,
      // What an endpoint URL must be here, for the form's hint: https and public unless WEBHOOKS_ALLOW_PRIVATE.
      targets: { private_allowed: ctx.portal.allowPrivateWebhooks, timeout_ms: ctx.portal.webhookTimeoutMs },
      data: endpoints.map((e) => {
        const of = (status: string) => counts.find((c) => c.endpoint_id === e.id && c.status === status)?.n ?? 0;
        const [delivered, failed, pending] = [of('delivered'), of('failed'), of('pending')];
        // The last attempt, read from the attempts themselves on every call: never a stored summary that lags them.
        return {
          ...e,
          delivered,
          failed,
          pending,
          success_rate: delivered + failed ? delivered / (delivered + failed) : null,
          last_attempt: last.get(e.id) ?? null,
        };
      }),
    };
  }),
  /** One endpoint for its page, with its last attempt. */
  get: manage.input(z.strictObject({ id: endpointId })).query(async ({ ctx, input }) => {
    const endpoint = await endpointOrNotFound(ctx.db.db, ctx.account.id, input.id);
    const last = await lastAttempts(ctx.db.db, ctx.account.id, [endpoint.id]);
    // What its messages can be filtered by: the types it receives, and the test event.
    const message_types = [...(endpoint.events === 'all' ? EVENT_TYPES : endpoint.events), TEST_EVENT_TYPE];
    return {
      endpoint: { ...endpoint, last_attempt: last.get(endpoint.id) ?? null },
      event_types: EVENT_CATALOGUE,
      message_types,
    };
  }),
  stats: manage
    .input(z.strictObject({ id: endpointId, range: z.enum(namesOf(STATS_RANGES)) }))
    .query(({ ctx, input }) => deliveryStats(ctx.db.db, ctx.account.id, input.id, input.range, ctx.now())),
  messagePage: manage
    .input(
      z.strictObject({
        id: endpointId,
        status: z.enum(MESSAGE_STATUSES).optional(),
        event_type: z
          .string()
          .refine((t) => isEventType(t) || t === TEST_EVENT_TYPE, 'Not an event type')
          .optional(),
        cursor: recordId.optional(),
      }),
    )
    .query(async ({ ctx, input: { id, ...q } }) => ({
      ...(await messagePage(ctx.db.db, ctx.account.id, id, { ...q, limit: MESSAGES_PER_PAGE })),
      /** Attempts a message gets in all, for "attempt 3 of 8". */
      max_attempts: ctx.portal.webhookAttempts,
    })),
  message: manage
    .input(z.strictObject({ endpoint_id: endpointId, message_id: recordId }))
    .query(({ ctx, input }) => messageDetail(ctx.db.db, ctx.account.id, input.endpoint_id, input.message_id)),
  recoverCount: manage
    .input(z.strictObject({ endpoint_id: endpointId, since }))
    .query(({ ctx, input }) =>
      recoverCount(ctx.db.db, ctx.account.id, input.endpoint_id, new Date(input.since).toISOString()),
    ),
  create: manage
    .input(endpointInput)
    .mutation(({ ctx, input }) =>
      createEndpoint(ctx.db, ctx.account, ctx.actor, input, ctx.portal.allowPrivateWebhooks),
    ),
  update: manage
    .input(endpointInput.extend({ id: endpointId }))
    .mutation(({ ctx, input: { id, ...input } }) =>
      updateEndpoint(ctx.db, ctx.account, ctx.actor, id, input, ctx.portal.allowPrivateWebhooks),
    ),
  secret: manage
    .input(z.strictObject({ id: endpointId }))
    .query(async ({ ctx, input }) => ({ secret: await endpointSecret(ctx.db.db, ctx.account.id, input.id) })),
  // grace: how long the previous secret also signs (24 h, 1 h, or now for a leaked one), as for API keys.
  rotate: manage
    .input(z.strictObject({ id: endpointId, grace: rotationGraceInput }))
    .mutation(({ ctx, input }) => rotateSecret(ctx.db, ctx.account, ctx.actor, input.id, input.grace)),
  setEnabled: manage
    .input(z.strictObject({ id: endpointId, enabled: z.boolean() }))
    .mutation(({ ctx, input }) =>
      setEndpointEnabled(
        ctx.db,
        ctx.account,
        ctx.actor,
        input.id,
        input.enabled,
        input.enabled ? null : `Disabled by ${ctx.member.name}`,
      ),
    ),
  delete: manage.input(z.strictObject({ id: endpointId })).mutation(async ({ ctx, input }) => {
    await deleteEndpoint(ctx.db, ctx.account, ctx.actor, input.id);
    return { deleted: true };
  }),
  test: manage
    .input(z.strictObject({ id: endpointId }))
    .mutation(({ ctx, input }) => sendTestEvent(ctx.db, ctx.account, ctx.actor, input.id)),
  messages: manage
    .input(z.strictObject({ id: endpointId }))
    .query(({ ctx, input }) => listMessages(ctx.db.db, ctx.account.id, input.id)),
  replay: manage
    .input(z.strictObject({ event_id: z.string().min(1).max(100), endpoint_id: endpointId }))
    .mutation(({ ctx, input }) => replayEvent(ctx.db, ctx.account, ctx.actor, input.event_id, input.endpoint_id)),
  recover: manage
    .input(z.strictObject({ endpoint_id: endpointId, since }))
    .mutation(({ ctx, input }) =>
      recoverSince(ctx.db, ctx.account, ctx.actor, input.endpoint_id, new Date(input.since).toISOString()),
    ),
});
