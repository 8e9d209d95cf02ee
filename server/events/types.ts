/**
 * The event catalogue: every type an endpoint may subscribe to, in the specification's order (its
 * table, Events), then the additive ones. `announce` and `recordWrite` take an `EventType`, so a typo or
 * a type outside this list does not compile; the feed's `type` filter, endpoint subscriptions, the
 * portal's chooser and /schema all read this list.
 */
const crud = <R extends string>(resource: R) =>
  [`${resource}.created`, `${resource}.updated`, `${resource}.deleted`] as const;

export const EVENT_TYPES = [
  ...crud('appointments'),
  'appointments.rescheduled',
  'appointments.cancelled',
  'appointments.missed',
  'appointments.arrived',
  'appointments.reinstated',
  ...crud('patients'),
  ...crud('payments'),
  ...crud('payment_allocations'),
  ...crud('invoices'),
  ...crud('files'),
  ...crud('locations'),
  ...crud('practitioners'),
  ...crud('appointment_types'),
  ...crud('modalities'),
  ...crud('payment_methods'),
  ...crud('referral_sources'),
  ...crud('addresses'),
  ...crud('numbers'),
  ...crud('patient_logs'),
  ...crud('patient_log_tags'),
  ...crud('practitioner_availabilities'),
  // Additive (the specification lists no clinical_notes events): notes are written once (POST only),
  // so creation is their only event; docs/decisions.md, clinical_notes.
  'clinical_notes.created',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The resource an event type names (`data.entity`): `patients` for `patients.created`. */
export type EventEntity = EntityOf<EventType>;
type EntityOf<T extends EventType> = T extends `${infer E}.${string}` ? E : never;
/** The verbs of a resource's events: `ActionOf<'appointments'>` is created, updated, ..., reinstated. */
export type ActionOf<E extends EventEntity, T extends EventType = EventType> = T extends `${E}.${infer A}` ? A : never;

/** Tags on timeline entries: no surface places them (POST /patient_logs writes an entry without tags). */
const LOG_TAGS =
  'tags on timeline entries are placed in the clinic software; the API and the portal write timeline entries without tags';

/**
 * Resources the API keeps read-only whose changes staff make in the portal's Practice pages
 * (server/routers/portal/practice): their created/updated/deleted events fire from the portal only.
 */
export const PORTAL_SETUP_RESOURCES = [
  'locations',
  'practitioners',
  'appointment_types',
  'practitioner_availabilities',
  'modalities',
  'payment_methods',
] as const satisfies readonly EventEntity[];

/**
 * The types no operation of the API causes yet, and why: endpoints may subscribe to them (they are the
 * specification's), but they never fire today. Every other type fires, from the API or from the portal's
 * setup pages (PORTAL_SETUP_RESOURCES); server/test/events.catalogue.test.ts calls every write route and
 * every setup procedure and holds this list to what they announce.
 */
const SILENT: { readonly [T in EventType]?: string } = {
  'patient_log_tags.created': LOG_TAGS,
  'patient_log_tags.updated': LOG_TAGS,
  'patient_logs.updated': 'timeline entries are written once (POST only)',
  'payment_allocations.updated': 'an allocation is made or removed, never changed',
};

export interface EventTypeInfo {
  type: EventType;
  /** Whether an operation of the API announces it today. */
  fires: boolean;
  /** Why it never fires, when it does not. */
  reason: string | null;
}

/** The catalogue as data, in its order: for the portal's chooser and GET /schema/events. */
export const EVENT_CATALOGUE: readonly EventTypeInfo[] = EVENT_TYPES.map((type) => ({
  type,
  fires: SILENT[type] === undefined,
  reason: SILENT[type] ?? null,
}));

export const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);

/** The resources events name (`data.entity`), in the catalogue's order. */
export const EVENT_ENTITIES = [...new Set(EVENT_TYPES.map((t) => t.slice(0, t.indexOf('.')) as EventEntity))] as [
  EventEntity,
  ...EventEntity[],
];

/** The type of the test event an admin sends from the portal or the CLI (not an event of the outbox). */
export const TEST_EVENT_TYPE = 'webhook.test';
