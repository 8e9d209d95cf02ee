/**
 * OpenAPI 3.1's top-level `webhooks`: one entry per event type of the catalogue (server/events/catalogue.ts),
 * each the POST the server sends: the payload as a named schema (`WebhookEvent`, the envelope every type
 * shares, and one `PatientCreatedEvent`… per type with its `type` fixed), the Standard Webhooks headers,
 * what the receiver answers, and the catalogue's example. Generated clients get the event types for free.
 *
 * Payloads are thin (spec: Events): `data` names the record (`entity`, `id`), never holds it; the
 * receiver fetches the record with its own key. `WebhookEvent` is the events resource's model (the
 * feed, GET /events, lists the same objects), whose `type` stays open: a type added later still validates.
 */
import { EVENT_DESCRIPTIONS, type EventDescription } from '../../events/catalogue';
import { RESOURCES } from '../../resources';
import { events } from '../../resources/events';
import { ERROR_MODEL, modelName, pascal } from './names';
import type { Json } from './operation';
import { ref } from './schemas';

export const WEBHOOK_EVENT_MODEL = 'WebhookEvent';

/** The component of one type's payload: `patients.created` → `PatientCreatedEvent`. */
export const webhookEventName = (e: Pick<EventDescription, 'type' | 'resource'>) =>
  `${pascal(RESOURCES[e.resource].singular)}${pascal(e.type.slice(e.type.indexOf('.') + 1))}Event`;

/** The headers of every delivery (Standard Webhooks), as the worker sends them (server/webhooks/worker.ts). */
export const WEBHOOK_HEADERS: Record<string, Json> = {
  WebhookId: {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description:
      'The event id (the payload’s `id`): the same on every retry and replay, so use it to drop duplicates. Signed.',
    schema: { type: 'string', minLength: 1 },
  },
  WebhookTimestamp: {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description:
      'When this attempt was sent, in whole seconds since the Unix epoch. Signed: refuse a delivery whose timestamp is far from your clock (replays).',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  WebhookSignature: {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint’s signing secret: ' +
      'one, or two while a rotated secret’s grace lasts. Any one that verifies is enough; the `standardwebhooks` libraries check it.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
  },
};

/** The envelope of every event: the feed's model, named for webhook receivers. */
function envelope(): Json {
  return {
    description:
      'The payload of every webhook (the same object GET /events lists): which event (`id`, `type`), when it happened, and the record it is about (`data`). ' +
      'Thin: fetch the record itself for its current state. More event types may appear within the version: ignore one you do not handle.',
    allOf: [ref(modelName(events))],
  };
}

/** One type's payload: the envelope with its `type` and `data.entity` fixed. */
function payload(e: EventDescription): Json {
  const resource = RESOURCES[e.resource];
  const read = resource.read
    ? ` GET /${resource.name}/{id} returns its current state (a \`${modelName(resource)}\`).`
    : '';
  return {
    description: `${e.description} The payload of \`${e.type}\`.`,
    allOf: [
      ref(WEBHOOK_EVENT_MODEL),
      {
        type: 'object',
        required: ['type', 'data'],
        properties: {
          type: { type: 'string', const: e.type },
          data: {
            type: 'object',
            required: ['entity', 'id'],
            properties: {
              entity: { type: 'string', const: e.resource },
              id: { type: 'integer', description: `The ${resource.singular}’s id.${read}` },
            },
          },
        },
      },
    ],
  };
}

const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** The POST the server sends for one type. */
function operation(e: EventDescription): Json {
  const fires = e.fires ? '' : `\n\nNot sent today: ${e.reason}. An endpoint may subscribe to it already.`;
  return {
    post: {
      operationId: `webhook_${e.type.replace('.', '_')}`,
      summary: e.type,
      description: `${e.description}${fires}\n\nSent to every enabled endpoint subscribed to \`${e.type}\` (or to all types), signed with its secret (Standard Webhooks).`,
      tags: [e.resource],
      parameters: Object.keys(WEBHOOK_HEADERS).map(parameterRef),
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref(webhookEventName(e)), example: e.example } },
      },
      responses: {
        '2XX': {
          description:
            'Received. Answer within a few seconds; the body is ignored (its first 1 KB is kept with the attempt).',
        },
        '410': {
          description:
            'Gone: the endpoint is disabled at once and nothing more is sent to it until it is enabled again in the portal.',
        },
        default: {
          description:
            'Any other answer, or none within the timeout: attempted again with exponential backoff over about a day (a 429, 502, 503 or 504 with Retry-After is retried after that many seconds); an endpoint failing that long is disabled.',
        },
      },
    },
  };
}

/** Adds the `webhooks` section and its components to a built document. */
export function addWebhooks(doc: Json): void {
  const components = doc.components as { schemas: Record<string, Json>; parameters?: Record<string, Json> };
  const schemas: Record<string, Json> = { ...components.schemas, [WEBHOOK_EVENT_MODEL]: envelope() };
  for (const e of EVENT_DESCRIPTIONS) schemas[webhookEventName(e)] = payload(e);
  // In name order, the error body first, as the rest of the document's components.
  const names = Object.keys(schemas)
    .filter((n) => n !== ERROR_MODEL)
    .sort();
  components.schemas = Object.fromEntries([ERROR_MODEL, ...names].map((n) => [n, schemas[n]]));
  components.parameters = { ...components.parameters, ...WEBHOOK_HEADERS };
  doc.webhooks = Object.fromEntries(EVENT_DESCRIPTIONS.map((e) => [e.type, operation(e)]));
}
