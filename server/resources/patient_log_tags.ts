import * as t from '../../db/schema';
import { PATIENT_LOG } from './follows';
import { defineResource } from './define';
import { f, standardFields } from './fields';

export const patientLogTags = defineResource({
  name: 'patient_log_tags',
  singular: 'patient log tag',
  permission: 'clinical',
  area: 'patients',
  description: 'Tags on patient timeline entries. Read-only.',
  table: t.patientLogTags,
  follows: { parent: PATIENT_LOG, column: 'patient_log_id' },
  fields: {
    id: f.id(),
    patient_log_id: f.ref({ filterable: true, sortable: true }),
    tag_id: f.ref({ filterable: true }),
    ...standardFields(),
  },
});
