import { bool, index, json, table, tenantColumns, text } from '../dialect';

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
