import { bool, index, int, json, table, tenantColumns, text } from '../dialect';

/** Clinical notes on a patient file, written by a practitioner. */
export const clinicalNotes = table(
  'clinical_notes',
  {
    ...tenantColumns(),
    patient_id: int().notNull(),
    practitioner_id: int(),
    title: text().notNull(),
    body: text().notNull(),
    created_by: text(),
  },
  (t) => [index('clinical_notes_account_idx').on(t.account_id, t.id), index('clinical_notes_patient_idx').on(t.account_id, t.patient_id, t.id)],
);

export interface FormQuestion {
  key: string;
  label: string;
  type: 'text' | 'textarea' | 'number' | 'date' | 'yes_no' | 'choice' | 'scale';
  required: boolean;
  options?: string[];
}

/** Templates of the forms a clinic sends patients (intake, consent, outcome measures). */
export const formTemplates = table(
  'form_templates',
  {
    ...tenantColumns(),
    name: text().notNull(),
    description: text(),
    category: text<'intake' | 'consent' | 'outcome_measure' | 'other'>().notNull(),
    active: bool().notNull(),
    questions: json<FormQuestion[]>().notNull(),
  },
  (t) => [index('form_templates_account_idx').on(t.account_id, t.id)],
);
