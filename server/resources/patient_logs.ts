import { z } from 'zod';
import * as t from '../../db/schema';
import { PATIENT } from './follows';
import { defineResource } from './define';
import { f, standardFields } from './fields';

export const patientLogs = defineResource({
  name: 'patient_logs',
  singular: 'patient log',
  permission: 'clinical',
  area: 'patients',
  description: 'Timeline entries on a patient file. source is api for entries created through the API.',
  table: t.patientLogs,
  follows: { parent: PATIENT, column: 'patient_id' },
  write: ['create'],
  rules: { create: ['patient_id must be a live patient of the account (422 patient_not_found)'] },
  fields: {
    id: f.id(),
    patient_id: f.ref({ filterable: true, sortable: true, write: 'required' }),
    type: f.enum(t.PATIENT_LOG_TYPES, { filterable: true, write: 'required' }),
    sub_type: f.string({
      maxLength: 255,
      nullable: true,
      filterable: true,
      write: 'optional',
      description: 'Free-text label, not validated against a list',
    }),
    source: f.enum(t.PATIENT_LOG_SOURCES, { filterable: true, description: 'api for entries created through the API' }),
    source_entity: f.string({
      maxLength: 255,
      nullable: true,
      filterable: true,
      write: 'optional',
      description: 'Free-text label for what generated the entry',
    }),
    data: f.string({ write: 'required', input: z.string().min(1).max(65535), description: 'The entry text' }),
    ...standardFields(),
  },
});
