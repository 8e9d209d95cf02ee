import { bool, index, table, tenantColumns, text, sortIndexes } from '../dialect';

export const referralSources = table(
  'referral_sources',
  {
    ...tenantColumns(),
    name: text().notNull(),
    category: text(),
    active: bool().notNull(),
  },
  (t) => [index('referral_sources_account_idx').on(t.account_id, t.id), ...sortIndexes('referral_sources', t, [t.name, t.created_at, t.updated_at])],
);
