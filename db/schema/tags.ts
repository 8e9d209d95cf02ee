import { accountIdIndex, int, table, tenantColumns, text, sortIndexes } from '../dialect';

export const tags = table(
  'tags',
  {
    ...tenantColumns(),
    name: text().notNull(),
    color: text(),
    sort_order: int().notNull(),
  },
  (t) => [
    ...accountIdIndex('tags_account_idx', t),
    ...sortIndexes('tags', t, [t.name, t.sort_order, t.created_at, t.updated_at]),
  ],
);
