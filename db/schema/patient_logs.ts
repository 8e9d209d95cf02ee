import { accountIdIndex, index, table, tenantColumns, text, sortIndexes, ref, tenantForeignKey } from '../dialect';
import { patients } from './patients';

export const PATIENT_LOG_TYPES = ['note', 'comms', 'financial', 'appt', 'membership', 'system', 'historical'] as const;
export const PATIENT_LOG_SOURCES = ['api', 'staff', 'system'] as const;

/** Timeline entries on a patient file. */
export const patientLogs = table(
  'patient_logs',
  {
    ...tenantColumns(),
    patient_id: ref().notNull(),
    type: text<(typeof PATIENT_LOG_TYPES)[number]>().notNull(),
    sub_type: text(),
    source: text<(typeof PATIENT_LOG_SOURCES)[number]>().notNull(),
    source_entity: text(),
    data: text().notNull(),
    created_by: text(),
  },
  (t) => [
    ...accountIdIndex('patient_logs_account_idx', t),
    ...sortIndexes('patient_logs', t, [t.updated_at]),
    index('patient_logs_patient_idx').on(t.account_id, t.patient_id, t.id),
    index('patient_logs_created_at_idx').on(t.account_id, t.created_at, t.id),
    ...tenantForeignKey('patient_logs_patient_fk', t, t.patient_id, () => patients),
  ],
);

/** Tags on timeline entries. */
export const patientLogTags = table(
  'patient_log_tags',
  {
    ...tenantColumns(),
    patient_log_id: ref().notNull(),
    tag_id: ref().notNull(),
  },
  (t) => [
    ...accountIdIndex('patient_log_tags_account_idx', t),
    ...sortIndexes('patient_log_tags', t, [t.patient_log_id, t.created_at, t.updated_at]),
  ],
);
