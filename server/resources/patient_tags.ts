import * as t from '../../db/schema';
import { PATIENT } from './follows';
import { defineResource } from './define';
import { f, standardFields } from './fields';

export const patientTags = defineResource({
  name: 'patient_tags',
  singular: 'patient tag',
  permission: 'patients',
  area: 'patients',
  description:
    'Places a tag on a patient (write-only: read tags through the patient). Both operations announce patients.updated. A tag placed by a care plan cannot be removed (409 tag_locked).',
  table: t.patientTags,
  follows: { parent: PATIENT, column: 'patient_id' },
  list: false,
  read: false,
  write: ['create', 'delete'],
  deleteSemantics: 'removes the tag from the patient',
  rules: {
    create: [
      'patient_id must be a live patient (422 patient_not_found)',
      'tag_id must be a tag of the account (422 invalid_input)',
      'the same tag twice on one patient → 409 conflict',
    ],
  },
  fields: {
    id: f.id(),
    patient_id: f.ref({ write: 'required' }),
    tag_id: f.ref({ write: 'required' }),
    editable: f.boolean({ description: 'false when placed by a care plan' }),
    created_at: standardFields().created_at,
  },
});
