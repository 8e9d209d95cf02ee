import { accountIdIndex, bool, index, table, tenantColumns, text, sortIndexes, ref } from '../dialect';

export const AVAILABILITY_TYPES = ['open', 'appt_guide', 'custom_availability', 'blockout', 'break', 'closed'] as const;

export const practitionerAvailabilities = table(
  'practitioner_availabilities',
  {
    ...tenantColumns(),
    type: text<(typeof AVAILABILITY_TYPES)[number]>(),
    starts_at: text(),
    ends_at: text(),
    day: text(),
    online_booking: bool(),
    description: text(),
    color: text(),
    resource_id: ref(),
    span_all_columns: bool(),
    practitioner_id: ref(),
    location_id: ref(),
  },
  (t) => [
    ...accountIdIndex('practitioner_availabilities_account_idx', t),
    ...sortIndexes('practitioner_availabilities', t, [
      t.type,
      t.starts_at,
      t.ends_at,
      t.day,
      t.practitioner_id,
      t.location_id,
      t.created_at,
      t.updated_at,
    ]),
    index('practitioner_availabilities_practitioner_idx').on(t.account_id, t.practitioner_id, t.location_id),
  ],
);
