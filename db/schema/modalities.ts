import { accountIdIndex, table, tenantColumns, text, sortIndexes } from '../dialect';

export const modalities = table(
  'modalities',
  {
    ...tenantColumns(),
    name: text().notNull(),
    color: text(),
  },
  (t) => [
    ...accountIdIndex('modalities_account_idx', t),
    ...sortIndexes('modalities', t, [t.name, t.created_at, t.updated_at]),
  ],
);
