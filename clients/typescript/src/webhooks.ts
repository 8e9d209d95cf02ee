import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components, webhooks } from './schema';

export { Webhook, WebhookVerificationError };

type Schemas = components['schemas'];
type PayloadOf<Entry> = Entry extends { post: { requestBody?: { content: { 'application/json': infer Event } } } }
  ? Event
  : never;

/**
 * The payload of each event type the document describes under `webhooks` (`PatientCreatedEvent`, …),
 * as one union: `Extract<KnownWebhookEvent, { type: 'patients.created' }>` names one.
 */
export type KnownWebhookEvent = { [Type in keyof webhooks]: PayloadOf<webhooks[Type]> }[keyof webhooks];

/** The envelope every event shares, its `type` an open string (the document's WebhookEvent, or the feed's ApiEvent before it). */
export type WebhookEnvelope = Schemas extends { WebhookEvent: infer Event } ? Event : Schemas['ApiEvent'];

/**
 * What a delivery holds: one of the known events, or one of a type added after this client was
 * generated (the API is additive: such a type arrives as the envelope, to be ignored or logged).
 */
export type WebhookEvent = KnownWebhookEvent | WebhookEnvelope;

/** Narrows an event to a known type: `if (isEventType(event, 'patients.created')) event.data.id`. */
export function isEventType<Type extends KnownWebhookEvent['type']>(
  event: WebhookEvent,
  type: Type,
): event is Extract<KnownWebhookEvent, { type: Type }> {
  return event.type === type;
}

const HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/**
 * Verifies a delivery with the endpoint's signing secret (`whsec_…`) over the raw body, exactly as
 * received, and returns its event; throws WebhookVerificationError on a bad signature or a timestamp
 * more than five minutes away. `headers`: a Headers or Node's `req.headers`.
 */
export function verifyWebhook(
  secret: string,
  body: string | Uint8Array,
  headers: Headers | Record<string, string | string[] | undefined>,
): WebhookEvent {
  const read = (name: string) => {
    const value = headers instanceof Headers ? headers.get(name) : headers[name];
    return (Array.isArray(value) ? value.join(' ') : value) ?? '';
  };
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const wanted = Object.fromEntries(HEADERS.map((name) => [name, read(name)]));
  // The signature covers the body: once it verifies, the payload is the server's own event.
  return new Webhook(secret).verify(text, wanted) as WebhookEvent;
}
