/** The event types of the specification's table (Events), in its order: what an endpoint may subscribe to. */
const crud = (resource: string): [string, string, string] => [`${resource}.created`, `${resource}.updated`, `${resource}.deleted`];

export const EVENT_TYPES: readonly [string, ...string[]] = [
  ...crud('appointments'),
  'appointments.rescheduled',
  'appointments.cancelled',
  'appointments.missed',
  'appointments.arrived',
  'appointments.reinstated',
  ...['patients', 'payments', 'payment_allocations', 'invoices', 'files'].flatMap(crud),
  ...['locations', 'practitioners', 'appointment_types', 'modalities', 'payment_methods', 'referral_sources'].flatMap(crud),
  ...['addresses', 'numbers', 'patient_logs', 'patient_log_tags', 'practitioner_availabilities'].flatMap(crud),
];

/** The resources events name (`data.entity`), in the table's order. */
export const EVENT_ENTITIES: readonly [string, ...string[]] = ['appointments', ...new Set(EVENT_TYPES.map((t) => t.slice(0, t.indexOf('.'))).filter((e) => e !== 'appointments'))];

/** The type of the test event an admin sends from the portal or the CLI (not an event of the outbox). */
export const TEST_EVENT_TYPE = 'webhook.test';
