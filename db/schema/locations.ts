import { bool, index, table, tenantColumns, text, sortIndexes } from '../dialect';

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
  (t) => [index('locations_account_idx').on(t.account_id, t.id), ...sortIndexes('locations', t, [t.name, t.created_at, t.updated_at])],
);
