import { index, table, tenantColumns, text, sortIndexes, ref } from '../dialect';

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
  (t) => [index('clinical_notes_account_idx').on(t.account_id, t.id), ...sortIndexes('clinical_notes', t, [t.created_at, t.updated_at]), index('clinical_notes_patient_idx').on(t.account_id, t.patient_id, t.id)],
);
