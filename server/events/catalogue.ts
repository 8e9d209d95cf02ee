/**
 * The event catalogue described: each type of server/events/types.ts with its resource, one sentence
 * saying when it is sent, whether it fires today, and an example of the payload a receiver gets. GET
 * /schema/events, the portal's event catalogue and OpenAPI's `webhooks` all read this list, so a type
 * added to EVENT_TYPES appears in each of them with its sentence the day it is added.
 *
 * Apart from EVENT_CATALOGUE (server/events/types.ts), because the sentences name the resources'
 * declared singulars: types.ts is read by the declarations themselves (the feed's `type` enumeration).
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { followersOf, RESOURCES } from '../resources';
import { events } from '../resources/events';
import { EVENT_CATALOGUE, isEventType, type EventEntity, type EventType, type EventTypeInfo } from './types';
import { withArticle } from '../values/words';

/** What a webhook delivers (and GET /events lists): the events resource's record, `{ id, type, occurred_at, data }`. */
export const webhookPayloadSchema = events.readSchema;
export type WebhookPayload = z.output<typeof webhookPayloadSchema>;

export interface EventDescription extends EventTypeInfo {
  /** The resource the event is about (`data.entity`). */
  resource: EventEntity;
  /** When it is sent, in one sentence. */
  description: string;
  /** A payload as delivered (server/events/fan-out.ts). */
  example: WebhookPayload;
}

const capital = (s: string) => s[0].toUpperCase() + s.slice(1);

/**
 * The verbs beyond created/updated/deleted, and the types whose meaning is narrower or wider than the
 * verb's (spec: Events; `deleted` is a soft delete or a void for some resources). Written once here.
 */
const SAID: { readonly [T in EventType]?: string } = {
  'appointments.updated':
    'An appointment changed other than in its time or its status (notes, type, practitioner, location …).',
  'appointments.rescheduled': 'An appointment’s start or end changed (sent instead of appointments.updated).',
  'appointments.cancelled': 'An appointment was cancelled: its slot is free again.',
  'appointments.missed':
    'An appointment was marked missed (the patient did not arrive), by a person or by the clinic’s missed-appointment job.',
  'appointments.arrived': 'The patient of an appointment arrived.',
  'appointments.reinstated': 'A cancelled or missed appointment was booked again in its slot.',
  'patients.updated': 'A patient changed, a tag added to or removed from them included.',
  'patients.deleted': 'A patient was soft-deleted: the record is no longer returned.',
  'practitioners.deleted': 'A practitioner was deleted.',
  'patient_logs.deleted': 'A timeline entry went with its deleted patient: it is no longer returned.',
  'patient_log_tags.deleted':
    'A tag on a timeline entry went with the entry’s deleted patient: it is no longer returned.',
  'payments.updated': 'A payment changed, a refund of it or a change to its allocations included.',
  'payments.deleted': 'A payment was voided: the record is no longer returned and its allocations are released.',
  'invoices.updated':
    'An invoice changed, its line items and the payments allocated to it or released from it included.',
  'invoices.deleted': 'An invoice was voided and its allocations released.',
  'numbers.created': 'A phone number was added to a patient (saved with the patient).',
  'numbers.updated': 'A patient’s phone number changed (saved with the patient).',
  'numbers.deleted': 'A phone number was removed from a patient (saved with the patient).',
  'addresses.created': 'An address was added to a patient (saved with the patient).',
  'addresses.updated': 'A patient’s address changed (saved with the patient).',
  'addresses.deleted': 'An address was removed from a patient (saved with the patient).',
};

/**
 * What a delete or void takes with it (server/resources/follows.ts), said after its sentence: each record
 * that follows is announced by its own `.deleted` where there is one, else by this event.
 */
function followers(type: EventType, resource: string): string {
  const gone = followersOf(resource);
  if (!type.endsWith('.deleted') || !gone.length) return '';
  const own = gone.filter((r) => isEventType(`${r.name}.deleted`)).map((r) => r.name);
  const through = gone.filter((r) => !isEventType(`${r.name}.deleted`) && (r.read || r.list)).map((r) => r.name);
  const parts = [
    own.length ? `${own.join(', ')} (each announced by its own .deleted event)` : '',
    through.length ? `${through.join(', ')} (announced by this event alone)` : '',
  ].filter(Boolean);
  return ` What belongs to it goes with it: ${parts.join('; ')}; each is listed in GET /deleted_entities.`;
}

/** The plain sentence of a created, updated or deleted event. */
function sentence(type: EventType, singular: string, verb: string): string {
  const said = SAID[type];
  if (said) return said + followers(type, type.slice(0, type.indexOf('.')));
  if (verb === 'created') return `${capital(withArticle(singular))} was created.`;
  if (verb === 'updated') return `${capital(withArticle(singular))} changed.`;
  if (verb === 'deleted')
    return `${capital(withArticle(singular))} was deleted: it is listed in GET /deleted_entities.${followers(type, type.slice(0, type.indexOf('.')))}`;
  throw new Error(`${type}: say when it is sent (server/events/catalogue.ts, SAID)`);
}

/** The same example event id for a type on every build (UUID form, as the real ones). */
function exampleId(type: string): string {
  const h = createHash('sha256').update(type).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const EXAMPLE_AT = '2027-01-11T09:00:00.000Z';

function describeEvent(info: EventTypeInfo): EventDescription {
  const dot = info.type.indexOf('.');
  const resource = info.type.slice(0, dot) as EventEntity;
  const declared = RESOURCES[resource];
  if (!declared) throw new Error(`${info.type}: no resource named ${resource}`);
  // Parsed with the declaration, so an example can never drift from what the feed and the webhooks carry.
  const example = webhookPayloadSchema.parse({
    id: exampleId(info.type),
    type: info.type,
    occurred_at: EXAMPLE_AT,
    data: { entity: resource, id: 1 },
  });
  return { ...info, resource, description: sentence(info.type, declared.singular, info.type.slice(dot + 1)), example };
}

/** Every event type described, in the catalogue's order. */
export const EVENT_DESCRIPTIONS: readonly EventDescription[] = EVENT_CATALOGUE.map(describeEvent);
