/** Placing and removing tags on patients. Both announce patients.updated, never patient_tags.*. */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { patients, patientTags, tags } from '../../db/schema';
import { ApiError, invalid, notFound } from '../errors';
import { recordWrite } from '../events/record';
import { baseConditions } from '../list/engine';
import { patientTags as resource } from '../resources/patient_tags';
import { assertLivePatient } from './references';
import { recorded, stamp, type WriteContext } from './write-context';

export async function addPatientTag(w: WriteContext, input: { patient_id: number; tag_id: number }) {
  const acc = w.account.id;
  const row = await w.db.transaction(async (tx) => {
    await assertLivePatient(tx, acc, input.patient_id);
    const [tag] = await tx
      .select({ id: tags.id })
      .from(tags)
      .where(and(eq(tags.account_id, acc), eq(tags.id, input.tag_id)));
    if (!tag) throw invalid('tag_id', 'is not a tag of this account', 'invalid_input');
    const now = stamp(w);
    const [created] = await tx
      .insert(patientTags)
      .values({
        account_id: acc,
        patient_id: input.patient_id,
        tag_id: input.tag_id,
        editable: true,
        created_at: now,
        updated_at: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!created)
      throw new ApiError('conflict', 'This tag is already on the patient', { tag_id: ['is already on this patient'] });
    await touchPatient(tx, acc, input.patient_id, now);
    await recordWrite(tx, {
      ...recorded(w),
      entity: 'patient_tags',
      entityId: created.id,
      action: 'created',
      changes: input,
      eventType: 'patients.updated',
      eventEntity: 'patients',
      eventEntityId: input.patient_id,
    });
    return created;
  });
  return resource.toRecord(row);
}

export async function removePatientTag(w: WriteContext, id: number) {
  const acc = w.account.id;
  await w.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(patientTags)
      .where(and(...baseConditions(resource, acc), eq(patientTags.id, id)));
    if (!row) throw notFound('Patient tag');
    if (!row.editable) throw new ApiError('tag_locked', 'This tag was placed by a care plan and cannot be removed');
    await tx.delete(patientTags).where(and(eq(patientTags.account_id, acc), eq(patientTags.id, id)));
    await touchPatient(tx, acc, row.patient_id, stamp(w));
    // Announced as an update of the patient; the placement itself is not a polled resource.
    await recordWrite(tx, {
      ...recorded(w),
      entity: 'patient_tags',
      entityId: id,
      action: 'removed',
      changes: { patient_id: row.patient_id, tag_id: row.tag_id },
      eventType: 'patients.updated',
      eventEntity: 'patients',
      eventEntityId: row.patient_id,
    });
  });
}

/** The patient's tags are part of its record: it changed, for polling clients too (updated_at). */
async function touchPatient(tx: Db, accountId: number, patientId: number, at: string) {
  await tx
    .update(patients)
    .set({ updated_at: at })
    .where(and(eq(patients.account_id, accountId), eq(patients.id, patientId)));
}
