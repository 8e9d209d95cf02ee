import { z } from 'zod';
import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, standardFields } from './fields';

const question = z.object({
  key: z.string(),
  label: z.string(),
  type: z.enum(['text', 'textarea', 'number', 'date', 'yes_no', 'choice', 'scale']),
  required: z.boolean(),
  options: z.array(z.string()).optional(),
});

export const formTemplates = defineResource({
  name: 'form_templates',
  singular: 'form template',
  permission: 'practice',
  description: 'Templates of the forms a clinic sends patients (intake, consent, outcome measures). Read-only.',
  table: t.formTemplates,
  fields: {
    id: f.id(),
    name: f.string({ filterable: true, sortable: true }),
    description: f.string({ nullable: true }),
    category: f.enum(['intake', 'consent', 'outcome_measure', 'other'], { filterable: true }),
    active: f.boolean({ filterable: true }),
    questions: f.array(z.array(question), { description: 'The questions, in order' }),
    ...standardFields(),
  },
});
