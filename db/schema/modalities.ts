import { index, table, tenantColumns, text, sortIndexes } from '../dialect';

export const modalities = table(
  'modalities',
  {
    ...tenantColumns(),
    name: text().notNull(),
    color: text(),
  },
  (t) => [index('modalities_account_idx').on(t.account_id, t.id), ...sortIndexes('modalities', t, [t.name, t.created_at, t.updated_at])],
);
