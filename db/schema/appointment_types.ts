import { bool, index, int, table, tenantColumns, text } from '../dialect';

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
