import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, standardFields } from './fields';

export const patientLogTags = defineResource({
  name: 'patient_log_tags',
  description: 'Tags on patient timeline entries. Read-only.',
  table: t.patientLogTags,
  fields: {
    id: f.id(),
    patient_log_id: f.ref({ filterable: true, sortable: true }),
    tag_id: f.ref({ filterable: true }),
    ...standardFields(),
  },
});
