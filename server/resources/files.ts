import { z } from 'zod';
import * as t from '../../db/schema';
import { PATIENT } from './follows';
import { defineResource } from './define';
import { f, recordId, standardFields } from './fields';

export const files = defineResource({
  name: 'files',
  singular: 'file',
  permission: 'files',
  area: 'patients',
  description:
    'Files on a patient record. Upload with POST /files as multipart/form-data; the bytes are at /files/{id}/download. The content type is read from the bytes.',
  table: t.files,
  follows: { parent: PATIENT, column: 'patient_id' },
  write: ['create', 'update', 'delete'],
  deleteSemantics: 'removes the record and the bytes',
  rules: {
    create: [
      'multipart/form-data with file, patient_id, file_type, and optionally patient_log_id, description, patient_viewable',
      'file_type patient_log needs patient_log_id of an entry on the same patient (422 patient_log_mismatch)',
      'at most FILE_MAX_BYTES (default 25 MiB): larger uploads are 422 and nothing is stored',
      'bytes the store cannot keep: 409 file_store_failed, nothing recorded',
    ],
    delete: ['bytes the store cannot remove: 409 file_delete_failed, the record kept'],
    update: [
      'file_type moves only among generic, custom_content and diagnostic_image; patient_profile and patient_log are fixed (422 file_type_not_allowed)',
    ],
  },
  fields: {
    id: f.id(),
    patient_id: f.ref({ filterable: true, sortable: true }),
    patient_log_id: f.ref({ nullable: true, filterable: true }),
    entity_type: f.enum(['Patient'], { filterable: true }),
    file_type: f.enum(t.FILE_TYPES, { filterable: true, write: 'optional' }),
    file_name: f.string({ filterable: true, sortable: true }),
    description: f.string({ maxLength: 255, nullable: true, filterable: true, write: 'optional' }),
    mime_type: f.string({ filterable: true, description: 'Read from the bytes at upload, not from the client' }),
    size: f.string({ column: false, description: 'Size in bytes, as a string' }),
    patient_viewable: f.boolean({
      filterable: true,
      write: 'optional',
      input: z.boolean(),
      description: 'Whether the patient sees the file in the patient app',
    }),
    ...standardFields(),
  },
  compute: (row) => ({ size: String(row.size) }),
});

/** The upload's multipart fields arrive as text; the file part as { name, bytes } (server/rest/multipart.ts). */
export const uploadInput = z.strictObject({
  patient_id: z.coerce.number().pipe(recordId),
  file_type: z.enum(t.FILE_TYPES),
  patient_log_id: z.coerce.number().pipe(recordId).optional(),
  description: z.string().max(255).optional(),
  patient_viewable: z.stringbool().optional(),
  file: z
    .custom<{ name: string; bytes: Buffer }>(
      (v) => typeof v === 'object' && v !== null && 'bytes' in v && Buffer.isBuffer(v.bytes),
      'a file part named file is required',
    )
    .describe('The file (binary)'),
});
export type Upload = z.output<typeof uploadInput>;
