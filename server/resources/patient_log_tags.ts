import * as t from '../../db/schema';
import { LIVE_PATIENT_RULE, ofLogOfLivePatient } from './live-patient';
import { defineResource } from './define';
import { f, standardFields } from './fields';

export const patientLogTags = defineResource({
  name: 'patient_log_tags',
  singular: 'patient log tag',
  area: 'patients',
  description: 'Tags on patient timeline entries. Read-only. ' + LIVE_PATIENT_RULE,
  table: t.patientLogTags,
  scope: ofLogOfLivePatient,
  fields: {
    id: f.id(),
    patient_log_id: f.ref({ filterable: true, sortable: true }),
    tag_id: f.ref({ filterable: true }),
    ...standardFields(),
  },
});
