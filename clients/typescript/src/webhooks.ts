import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components } from './schema';

export { Webhook, WebhookVerificationError };

type Schemas = components['schemas'];

/**
 * What a webhook delivers: the document's WebhookEvent union when it names one, else the event
 * envelope GET /events serves (the same shape, `type` an open string).
 */
export type WebhookEvent = Schemas extends { WebhookEvent: infer Event } ? Event : Schemas['ApiEvent'];

const HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/**
 * Verifies a delivery with the endpoint's signing secret (`whsec_…`) over the raw body, exactly as
 * received, and returns its event; throws WebhookVerificationError on a bad signature or a timestamp
 * more than five minutes away. `headers`: a Headers or Node's `req.headers`.
 */
export function verifyWebhook(secret: string, body: string | Uint8Array, headers: Headers | Record<string, string | string[] | undefined>): WebhookEvent {
  const read = (name: string) => {
    const value = headers instanceof Headers ? headers.get(name) : headers[name];
    return (Array.isArray(value) ? value.join(' ') : value) ?? '';
  };
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const wanted = Object.fromEntries(HEADERS.map((name) => [name, read(name)]));
  // The signature covers the body: once it verifies, the payload is the server's own event.
  return new Webhook(secret).verify(text, wanted) as WebhookEvent;
}
