import {
  accountIdIndex,
  bool,
  index,
  int,
  table,
  tenantColumns,
  text,
  sortIndexes,
  ref,
  tenantForeignKey,
} from '../dialect';
import { patients } from './patients';

export const FILE_TYPES = ['generic', 'patient_profile', 'custom_content', 'diagnostic_image', 'patient_log'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** Uploaded files: the record here, the bytes in the file store under `storage_key`. */
export const files = table(
  'files',
  {
    ...tenantColumns(),
    patient_id: ref().notNull(),
    patient_log_id: ref(),
    entity_type: text<'Patient'>().notNull(),
    file_type: text<FileType>().notNull(),
    file_name: text().notNull(),
    description: text(),
    mime_type: text().notNull(),
    size: int().notNull(),
    storage_key: text().notNull(),
    patient_viewable: bool().notNull(),
    created_by: text(),
  },
  (t) => [
    ...accountIdIndex('files_account_idx', t),
    ...sortIndexes('files', t, [t.file_name, t.created_at, t.updated_at]),
    index('files_patient_idx').on(t.account_id, t.patient_id, t.id),
    ...tenantForeignKey('files_patient_fk', t, t.patient_id, () => patients),
  ],
);
