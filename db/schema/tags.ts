import { index, int, table, tenantColumns, text, sortIndexes } from '../dialect';

export const tags = table(
  'tags',
  {
    ...tenantColumns(),
    name: text().notNull(),
    color: text(),
    sort_order: int().notNull(),
  },
  (t) => [index('tags_account_idx').on(t.account_id, t.id), ...sortIndexes('tags', t, [t.name, t.sort_order, t.created_at, t.updated_at])],
);
