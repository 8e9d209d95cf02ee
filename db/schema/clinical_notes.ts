import { accountIdIndex, index, table, tenantColumns, text, sortIndexes, ref, tenantForeignKey } from '../dialect';
import { patients } from './patients';

/** Clinical notes on a patient file, written by a practitioner. */
export const clinicalNotes = table(
  'clinical_notes',
  {
    ...tenantColumns(),
    patient_id: ref().notNull(),
    practitioner_id: ref(),
    title: text().notNull(),
    body: text().notNull(),
    created_by: text(),
  },
  (t) => [
    ...accountIdIndex('clinical_notes_account_idx', t),
    ...sortIndexes('clinical_notes', t, [t.created_at, t.updated_at]),
    index('clinical_notes_patient_idx').on(t.account_id, t.patient_id, t.id),
    ...tenantForeignKey('clinical_notes_patient_fk', t, t.patient_id, () => patients),
  ],
);
