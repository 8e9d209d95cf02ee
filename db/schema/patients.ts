import {
  accountIdIndex,
  bool,
  day,
  index,
  partialIndex,
  json,
  table,
  tenantColumns,
  text,
  timestamp,
  uniqueIndex,
  sortIndexes,
  sortColumn,
  ref,
  tenantForeignKey,
} from '../dialect';
import { tags } from './tags';
import type { Locale } from './accounts';

export const SEXES = ['male', 'female', 'other'] as const;

export type CommunicationPreferences = {
  appointment_reminders?: boolean;
  marketing?: boolean;
  preferred_channel?: 'email' | 'sms' | 'phone' | 'post' | null;
};

export const patients = table(
  'patients',
  {
    ...tenantColumns(),
    first_name: text().notNull(),
    last_name: text().notNull(),
    preferred_name: text(),
    dob: day(),
    email: text(),
    sex: text<(typeof SEXES)[number]>(),
    locale: text<Locale>(),
    note: text(),
    custom_reference: text(),
    blocked: bool().notNull(),
    default_location_id: ref(),
    referral_source_id: ref(),
    referral_source_type: text<'referral_source' | 'patient'>(),
    communication_preferences: json<CommunicationPreferences>().notNull(),
    created_by: text(),
    deleted_at: timestamp(),
  },
  // Every read of patients skips soft-deleted rows, so the indexes hold live rows only: counts and sorts
  // are then answered from the index without visiting the table (partial indexes, both databases).
  (t) => {
    const on = partialIndex('deleted_at IS NULL');
    return [
      on('patients_account_id_idx', t.account_id, t.id),
      // Filtering by last name and sorting by first name (the benchmarked directory query) walks the composite.
      on('patients_last_name_idx', t.account_id, t.last_name, t.id),
      on('patients_last_first_name_idx', t.account_id, t.last_name, t.first_name, t.id),
      on('patients_first_name_idx', t.account_id, t.first_name, t.id),
      // Nullable: nulls first, as the list orders them (sortColumn).
      on('patients_preferred_name_idx', t.account_id, sortColumn(t.preferred_name), t.id),
      on('patients_email_idx', t.account_id, sortColumn(t.email), t.id),
      on('patients_dob_idx', t.account_id, sortColumn(t.dob), t.id),
      on('patients_custom_reference_idx', t.account_id, sortColumn(t.custom_reference), t.id),
      on('patients_created_at_idx', t.account_id, t.created_at, t.id),
      on('patients_updated_at_idx', t.account_id, t.updated_at, t.id),
      // The few deleted ones: what their numbers, notes, files… are hidden by (server/resources/live-patient.ts).
      partialIndex('deleted_at IS NOT NULL')('patients_deleted_idx', t.account_id, t.id),
    ];
  },
);

export const NUMBER_TYPES = ['mobile', 'home', 'work', 'other'] as const;

export const numbers = table(
  'numbers',
  {
    ...tenantColumns(),
    patient_id: ref().notNull(),
    number: text().notNull(),
    country_code: text(),
    iso2: text(),
    type: text<(typeof NUMBER_TYPES)[number]>().notNull(),
    intl_number: text(),
    /**
     * What phone searches compare (server/values/phone.ts phoneSearchKey): E.164 read in the account's
     * country, or the digits of a number that does not parse. `number` keeps what the client sent.
     */
    search_key: text(),
  },
  (t) => [
    ...accountIdIndex('numbers_account_idx', t),
    ...sortIndexes('numbers', t, [t.patient_id, t.created_at, t.updated_at]),
    index('numbers_search_key_idx').on(t.account_id, t.search_key),
    ...tenantForeignKey('numbers_patient_fk', t, t.patient_id, () => patients),
  ],
);

export const addresses = table(
  'addresses',
  {
    ...tenantColumns(),
    entity_type: text<'Patient'>().notNull(),
    entity_id: ref().notNull(),
    line_1: text(),
    line_2: text(),
    line_3: text(),
    city: text(),
    state: text(),
    postal_code: text(),
    country: text(),
  },
  (t) => [
    ...accountIdIndex('addresses_account_idx', t),
    ...sortIndexes('addresses', t, [t.created_at, t.updated_at]),
    index('addresses_entity_idx').on(t.account_id, t.entity_type, t.entity_id),
    // A city's addresses over a time range (`city=eq:York&created_at=gte:…`, in created_at order: a range's
    // default order), and the city filter alone.
    index('addresses_city_idx').on(t.account_id, t.city, t.created_at, t.id),
  ],
);

export const patientTags = table(
  'patient_tags',
  {
    ...tenantColumns(),
    patient_id: ref().notNull(),
    tag_id: ref().notNull(),
    editable: bool().notNull(),
  },
  (t) => [
    index('patient_tags_patient_idx').on(t.account_id, t.patient_id),
    // One placement of a tag per patient, also under concurrent requests.
    uniqueIndex('patient_tags_patient_tag_uq').on(t.account_id, t.patient_id, t.tag_id),
    ...tenantForeignKey('patient_tags_patient_fk', t, t.patient_id, () => patients),
    ...tenantForeignKey('patient_tags_tag_fk', t, t.tag_id, () => tags),
  ],
);
