import { id, index, table, text, timestamp, uniqueIndex } from '../dialect';

export const REGIONS = ['neptune', 'mercury', 'vulcan', 'jupiter', 'apollo'] as const;
export type Region = (typeof REGIONS)[number];
/** Languages of an account and of a patient file. */
export const LOCALES = [
  'en',
  'ca',
  'dk',
  'de',
  'es',
  'fr',
  'is',
  'it',
  'hu',
  'my',
  'nl',
  'no',
  'po',
  'fi',
  'se',
  'el',
  'he',
] as const;
export type Locale = (typeof LOCALES)[number];

/** Who must sign in with a second factor: no one (each member may), owners and admins, or everyone. */
export const TWO_FACTOR_POLICIES = ['optional', 'admins', 'everyone'] as const;
export type TwoFactorPolicy = (typeof TWO_FACTOR_POLICIES)[number];

/** A clinic: the tenant. `generation` is `legacy` for accounts not yet native to this API generation. */
export const accounts = table(
  'accounts',
  {
    id: id(),
    subdomain: text().notNull(),
    region: text<Region>().notNull(),
    name: text().notNull(),
    timezone: text().notNull(),
    currency: text().notNull(),
    locale: text<Locale>().notNull(),
    generation: text<'current' | 'legacy'>().notNull(),
    two_factor_policy: text<TwoFactorPolicy>().notNull().default('optional'),
    created_at: timestamp().notNull(),
    updated_at: timestamp().notNull(),
  },
  (t) => [uniqueIndex('accounts_subdomain_uq').on(t.subdomain), index('accounts_region_idx').on(t.region)],
);
