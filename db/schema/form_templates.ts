import { accountIdIndex, bool, json, table, tenantColumns, text, sortIndexes } from '../dialect';

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
  (t) => [
    ...accountIdIndex('form_templates_account_idx', t),
    ...sortIndexes('form_templates', t, [t.name, t.created_at, t.updated_at]),
  ],
);
