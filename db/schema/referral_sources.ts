import { accountIdIndex, bool, table, tenantColumns, text, sortIndexes } from '../dialect';

export const referralSources = table(
  'referral_sources',
  {
    ...tenantColumns(),
    name: text().notNull(),
    category: text(),
    active: bool().notNull(),
  },
  (t) => [
    ...accountIdIndex('referral_sources_account_idx', t),
    ...sortIndexes('referral_sources', t, [t.name, t.created_at, t.updated_at]),
  ],
);
