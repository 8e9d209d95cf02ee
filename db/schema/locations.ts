import { accountIdIndex, bool, table, tenantColumns, text, sortIndexes } from '../dialect';

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
  (t) => [
    ...accountIdIndex('locations_account_idx', t),
    ...sortIndexes('locations', t, [t.name, t.created_at, t.updated_at]),
  ],
);
