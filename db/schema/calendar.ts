import { bool, index, int, json, table, tenantColumns, text } from '../dialect';

export const locations = table(
  'locations',
  {
    ...tenantColumns(),
    name: text().notNull(),
    line_1: text(),
    city: text(),
    postal_code: text(),
    country: text(),
    phone: text(),
    email: text(),
    online_booking: bool().notNull(),
  },
  (t) => [index('locations_account_idx').on(t.account_id, t.id)],
);

export const practitioners = table(
  'practitioners',
  {
    ...tenantColumns(),
    first_name: text().notNull(),
    last_name: text().notNull(),
    title: text(),
    designation: text(),
    email: text(),
    active: bool().notNull(),
    online_booking: bool().notNull(),
    location_ids: json<number[]>().notNull(),
    appointment_type_ids: json<number[]>().notNull(),
  },
  (t) => [index('practitioners_account_idx').on(t.account_id, t.id)],
);

export const appointmentTypes = table(
  'appointment_types',
  {
    ...tenantColumns(),
    name: text().notNull(),
    description: text(),
    category: text(),
    duration_minutes: int().notNull(),
    color: text(),
    online_booking: bool().notNull(),
    active: bool().notNull(),
    max_attendees: int(),
    requires_resource: bool().notNull(),
  },
  (t) => [index('appointment_types_account_idx').on(t.account_id, t.id)],
);

export const modalities = table(
  'modalities',
  {
    ...tenantColumns(),
    name: text().notNull(),
    color: text(),
  },
  (t) => [index('modalities_account_idx').on(t.account_id, t.id)],
);

export const resources = table(
  'resources',
  {
    ...tenantColumns(),
    location_id: int().notNull(),
    name: text().notNull(),
    public_name: text(),
    description: text(),
    color: text(),
    sort_order: int().notNull(),
    status: text<'active' | 'inactive' | 'archived'>().notNull(),
    locked: bool().notNull(),
  },
  (t) => [index('resources_account_idx').on(t.account_id, t.id), index('resources_location_idx').on(t.account_id, t.location_id)],
);

export const AVAILABILITY_TYPES = ['open', 'appt_guide', 'custom_availability', 'blockout', 'break', 'closed'] as const;

export const practitionerAvailabilities = table(
  'practitioner_availabilities',
  {
    ...tenantColumns(),
    type: text<(typeof AVAILABILITY_TYPES)[number]>(),
    starts_at: text(),
    ends_at: text(),
    day: text(),
    online_booking: bool(),
    description: text(),
    color: text(),
    resource_id: int(),
    span_all_columns: bool(),
    practitioner_id: int(),
    location_id: int(),
  },
  (t) => [
    index('practitioner_availabilities_account_idx').on(t.account_id, t.id),
    index('practitioner_availabilities_practitioner_idx').on(t.account_id, t.practitioner_id, t.location_id),
  ],
);
