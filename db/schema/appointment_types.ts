import { accountIdIndex, bool, int, table, tenantColumns, text, sortIndexes } from '../dialect';

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
  (t) => [
    ...accountIdIndex('appointment_types_account_idx', t),
    ...sortIndexes('appointment_types', t, [t.name, t.duration_minutes, t.created_at, t.updated_at]),
  ],
);
