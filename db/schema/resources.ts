import { accountIdIndex, bool, int, table, tenantColumns, text, sortIndexes, ref } from '../dialect';

export const resources = table(
  'resources',
  {
    ...tenantColumns(),
    location_id: ref().notNull(),
    name: text().notNull(),
    public_name: text(),
    description: text(),
    color: text(),
    sort_order: int().notNull(),
    status: text<'active' | 'inactive' | 'archived'>().notNull(),
    locked: bool().notNull(),
  },
  (t) => [
    ...accountIdIndex('resources_account_idx', t),
    ...sortIndexes('resources', t, [t.location_id, t.name, t.sort_order, t.created_at, t.updated_at]),
  ],
);
