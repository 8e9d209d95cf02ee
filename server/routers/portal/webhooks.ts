/** Webhook endpoints in the portal (Manage webhooks): the same domain functions as `clinic webhook ...`. */
import { z } from 'zod';
import { EVENT_CATALOGUE, EVENT_TYPES } from '../../events/types';
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

const manage = permitted('webhooks.manage');
const endpointId = recordId;
const endpointInput = z.strictObject({
  url: z.string().trim().min(1, 'Enter the URL of your endpoint').max(2000),
  description: z.string().trim().max(500).nullable().optional(),
  events: z.union([z.literal('all'), z.array(z.string()).min(1, 'Choose at least one event type, or all').max(EVENT_TYPES.length)]),
});

export const webhooksRouter = router({
  list: manage.query(async ({ ctx }) => {
    const [endpoints, counts] = await Promise.all([listEndpoints(ctx.db.db, ctx.account.id), deliveryCounts(ctx.db.db, ctx.account.id)]);
    return {
      // Each type with whether anything fires it today: the chooser says which never fire yet, and why.
      event_types: EVENT_CATALOGUE,
      data: endpoints.map((e) => {
        const of = (status: string) => counts.find((c) => c.endpoint_id === e.id && c.status === status)?.n ?? 0;
        const [delivered, failed, pending] = [of('delivered'), of('failed'), of('pending')];
        return { ...e, delivered, failed, pending, success_rate: delivered + failed ? delivered / (delivered + failed) : null };
      }),
    };
  }),
  create: manage.input(endpointInput).mutation(({ ctx, input }) => createEndpoint(ctx.db, ctx.account, ctx.actor, input, ctx.portal.allowPrivateWebhooks)),
  update: manage
    .input(endpointInput.extend({ id: endpointId }))
    .mutation(({ ctx, input: { id, ...input } }) => updateEndpoint(ctx.db, ctx.account, ctx.actor, id, input, ctx.portal.allowPrivateWebhooks)),
  secret: manage.input(z.strictObject({ id: endpointId })).query(async ({ ctx, input }) => ({ secret: await endpointSecret(ctx.db.db, ctx.account.id, input.id) })),
  rotate: manage.input(z.strictObject({ id: endpointId })).mutation(({ ctx, input }) => rotateSecret(ctx.db, ctx.account, ctx.actor, input.id)),
  setEnabled: manage
    .input(z.strictObject({ id: endpointId, enabled: z.boolean() }))
    .mutation(({ ctx, input }) => setEndpointEnabled(ctx.db, ctx.account, ctx.actor, input.id, input.enabled, input.enabled ? null : `Disabled by ${ctx.member.name}`)),
  delete: manage.input(z.strictObject({ id: endpointId })).mutation(async ({ ctx, input }) => {
    await deleteEndpoint(ctx.db, ctx.account, ctx.actor, input.id);
    return { deleted: true };
  }),
  test: manage.input(z.strictObject({ id: endpointId })).mutation(({ ctx, input }) => sendTestEvent(ctx.db, ctx.account, ctx.actor, input.id)),
  messages: manage.input(z.strictObject({ id: endpointId })).query(({ ctx, input }) => listMessages(ctx.db.db, ctx.account.id, input.id)),
  replay: manage
    .input(z.strictObject({ event_id: z.string().min(1).max(100), endpoint_id: endpointId }))
    .mutation(({ ctx, input }) => replayEvent(ctx.db, ctx.account, ctx.actor, input.event_id, input.endpoint_id)),
  recover: manage
    .input(z.strictObject({ endpoint_id: endpointId, since: z.iso.datetime({ offset: true }) }))
    .mutation(({ ctx, input }) => recoverSince(ctx.db, ctx.account, ctx.actor, input.endpoint_id, new Date(input.since).toISOString())),
});
