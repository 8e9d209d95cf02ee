import { z } from 'zod';
import * as t from '../../db/schema';
import { PATIENT } from './follows';
import { defineResource } from './define';
import { f, standardFields } from './fields';

export const clinicalNotes = defineResource({
  name: 'clinical_notes',
  singular: 'clinical note',
  permission: 'clinical',
  area: 'patients',
  description: 'Clinical notes on a patient file. created_at may be sent to import historical notes.',
  table: t.clinicalNotes,
  follows: { parent: PATIENT, column: 'patient_id' },
  write: ['create'],
  rules: {
    create: [
      'patient_id must be a live patient of the account (422 patient_not_found)',
      'practitioner_id, when sent, must be a practitioner of the account (422 practitioner_not_found)',
      'created_at, when sent, imports a historical note and must be in the past (422 invalid_input)',
    ],
  },
  fields: {
    id: f.id(),
    patient_id: f.ref({ filterable: true, sortable: true, write: 'required' }),
    practitioner_id: f.ref({ nullable: true, filterable: true, write: 'optional' }),
    title: f.string({ maxLength: 255, filterable: true, write: 'required', input: z.string().trim().min(1).max(255) }),
    body: f.string({ write: 'required', input: z.string().min(1).max(100_000), description: 'The note text' }),
    ...standardFields(),
    created_at: f.timestamp({
      filterable: true,
      sortable: true,
      write: 'optional',
      description: 'When the note was written; send it only to import a historical note (must be in the past)',
    }),
  },
});
