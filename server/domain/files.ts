/** Files on patient records: upload (bytes to the store, then the row), category changes, removal. */
import { and, eq } from 'drizzle-orm';
import { files, patientLogs, type FileType } from '../../db/schema';
import { ApiError, invalid, notFound } from '../errors';
import type { FileStore } from '../files/store';
import { sniffContentType } from '../files/sniff';
import { changedFields, recordWrite } from '../events/record';
import { storedValues, type UpdateInput } from '../resources/define';
import { files as resource, type Upload } from '../resources/files';
import { mergedMetadataOrFail } from '../resources/metadata';
import { baseConditions } from '../list/engine';
import { getRow } from '../resources/queries';
import { assertLivePatient } from './references';
import { recorded, stamp, type WriteContext } from './write-context';

/** Categories a file may move between after upload; the others are fixed at upload. */
const MOVABLE: FileType[] = ['generic', 'custom_content', 'diagnostic_image'];

export async function uploadFile(w: WriteContext, store: FileStore, u: Upload) {
  const acc = w.account.id;
  // Cheap checks first, so a refused upload never touches the store.
  await w.db.transaction(async (tx) => checkUpload(tx, acc, u));
  const mime = await sniffContentType(u.file.bytes);
  let key: string;
  try {
    key = await store.put(acc, u.file.bytes);
  } catch {
    throw new ApiError('file_store_failed', 'The file could not be stored; nothing was saved. Retry later.');
  }
  let id: number;
  try {
    id = await w.db.transaction(async (tx) => {
      await checkUpload(tx, acc, u);
      const now = stamp(w);
      const [row] = await tx
        .insert(files)
        .values({
          account_id: acc,
          patient_id: u.patient_id,
          patient_log_id: u.patient_log_id ?? null,
          entity_type: 'Patient',
          file_type: u.file_type,
          file_name: u.file.name,
          description: u.description ?? null,
          mime_type: mime,
          size: u.file.bytes.length,
          storage_key: key,
          patient_viewable: u.patient_viewable ?? false,
          created_by: w.actor.actor_name,
          metadata: {},
          created_at: now,
          updated_at: now,
        })
        .returning({ id: files.id });
      const { file, ...fields } = u;
      await recordWrite(tx, {
        ...recorded(w),
        entity: 'files',
        entityId: row.id,
        action: 'created',
        changes: { ...fields, file_name: file.name, size: file.bytes.length, mime_type: mime },
      });
      return row.id;
    });
  } catch (err) {
    await store.delete(key).catch(() => undefined);
    throw err;
  }
  return resource.toRecord(await getRow(w.db.db, resource, acc, id));
}

async function checkUpload(tx: WriteContext['db']['db'], acc: number, u: Upload) {
  await assertLivePatient(tx, acc, u.patient_id);
  if (u.file_type === 'patient_log' || u.patient_log_id !== undefined) {
    const [log] =
      u.patient_log_id === undefined
        ? []
        : await tx
            .select({ patient_id: patientLogs.patient_id })
            .from(patientLogs)
            .where(and(eq(patientLogs.account_id, acc), eq(patientLogs.id, u.patient_log_id)));
    if (u.file_type !== 'patient_log' || !log || log.patient_id !== u.patient_id) {
      throw invalid(
        'patient_log_id',
        'file_type patient_log needs patient_log_id of a timeline entry of the same patient',
        'patient_log_mismatch',
      );
    }
  }
}

export async function updateFile(w: WriteContext, id: number, input: UpdateInput<typeof resource>) {
  const acc = w.account.id;
  await w.db.transaction(async (tx) => {
    const before = await loadFile(tx, acc, id);
    if (
      input.file_type !== undefined &&
      input.file_type !== before.file_type &&
      (!MOVABLE.includes(before.file_type) || !MOVABLE.includes(input.file_type))
    ) {
      throw invalid(
        'file_type',
        `the category moves only among ${MOVABLE.join(', ')}; patient_profile and patient_log are fixed at upload`,
        'file_type_not_allowed',
      );
    }
    const set = { ...storedValues(resource, input), updated_at: stamp(w) };
    if (input.metadata !== undefined) set.metadata = mergedMetadataOrFail(before.metadata, input.metadata);
    await tx
      .update(files)
      .set(set)
      .where(and(eq(files.account_id, acc), eq(files.id, id)));
    const after = await loadFile(tx, acc, id);
    // The change history calls the category `type`.
    const { file_type: category, ...changes } = changedFields(resource.toRecord(before), resource.toRecord(after));
    await recordWrite(tx, {
      ...recorded(w),
      entity: 'files',
      entityId: id,
      action: 'updated',
      changes: category ? { ...changes, type: category } : changes,
    });
  });
  return resource.toRecord(await getRow(w.db.db, resource, acc, id));
}

/** Removes the bytes, then the record; if the store refuses, the record stays (409 file_delete_failed). */
export async function deleteFile(w: WriteContext, store: FileStore, id: number) {
  const acc = w.account.id;
  const row = await loadFile(w.db.db, acc, id);
  try {
    await store.delete(row.storage_key);
  } catch {
    throw new ApiError(
      'file_delete_failed',
      'The file could not be removed from storage; the record is kept. Retry later.',
    );
  }
  await w.db.transaction(async (tx) => {
    await tx.delete(files).where(and(eq(files.account_id, acc), eq(files.id, id)));
    await recordWrite(tx, { ...recorded(w), entity: 'files', entityId: id, action: 'deleted' });
  });
}

export async function downloadFile(db: WriteContext['db'], store: FileStore, accountId: number, id: number) {
  const row = await loadFile(db.db, accountId, id);
  return { content_type: row.mime_type, file_name: row.file_name, bytes: await store.get(row.storage_key) };
}

async function loadFile(tx: WriteContext['db']['db'], acc: number, id: number) {
  const [row] = await tx
    .select()
    .from(files)
    .where(and(...baseConditions(resource, acc), eq(files.id, id)));
  if (!row) throw notFound('File');
  return row;
}
