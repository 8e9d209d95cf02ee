import { accountIdIndex, bool, json, table, tenantColumns, text, sortIndexes } from '../dialect';

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
  (t) => [
    ...accountIdIndex('practitioners_account_idx', t),
    ...sortIndexes('practitioners', t, [t.first_name, t.last_name, t.created_at, t.updated_at]),
  ],
);
