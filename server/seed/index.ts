/**
 * The sample practice: a three-site physiotherapy clinic with staff, calendar, catalogue and patients,
 * loaded into one account for demos, local development and the API tests (`clinic seed`, `npm run demo`,
 * `newClinic({ seed: true })`).
 *
 * Everything is derived from fixed tables and the row index, never from randomness, so every seeded
 * account has the same shape; only dated calendar rows move, because they are placed relative to today.
 * Addresses, phone numbers, tax and prices follow the account's region so that numbers pass the same
 * libphonenumber check as API writes (which defaults to the region's country).
 */
import { eq } from 'drizzle-orm';
import type { DbHandle } from '../../db/client';
import type { Metadata } from '../../db/dialect';
import {
  accounts,
  locations,
  clinicalNotes,
  formTemplates,
  patientLogTags,
  patientLogs,
  patientTags,
} from '../../db/schema';
import type { Account } from '../context';
import type { FileStore } from '../files/store';
import { seedAppointments } from './appointments';
import { seedBilling } from './billing';
import { createPatient } from '../domain/patients/write';
import { updatePracticeSettings } from '../domain/practice_settings';
import type { WriteContext } from '../domain/write-context';
import { PROFILES, CARE_PLAN_TAG } from './tables/practice';
import { PATIENTS, FORM_TEMPLATES } from './tables/patients';
import { insertedIds, insertPractice, todayIn } from './practice';
import {
  patientLogRows,
  patientInput,
  patientTagRows,
  clinicalNoteRows,
  insertCarePlans,
  uploadSampleFiles,
} from './patients';

export async function seedAccount(db: DbHandle, account: Account, store?: FileStore): Promise<{ created: boolean }> {
  const profile = PROFILES[account.region] ?? PROFILES.neptune;
  const now = new Date().toISOString();
  const base = { account_id: account.id, metadata: {} as Metadata, created_at: now, updated_at: now };

  const refs = await db.transaction(async (tx) => {
    // Two seeds racing on PostgreSQL would both see no locations; locking the account row serialises
    // them. SQLite needs nothing: its transactions start with BEGIN IMMEDIATE.
    if (db.dialect === 'pg')
      await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, account.id)).for('update');
    const [existing] = await tx
      .select({ id: locations.id })
      .from(locations)
      .where(eq(locations.account_id, account.id))
      .limit(1);
    if (existing) return null;
    return insertPractice(tx, base, profile, todayIn(account.timezone));
  });
  if (!refs) return { created: false };

  // Patients go through the domain write (audit log, outbox events, phone normalisation). It opens its
  // own transaction, so it cannot run inside the one above. A failure from here on leaves a partly
  // seeded account that a re-run will not complete.
  const w: WriteContext = { db, account, actor: { actor_type: 'system', actor_id: null, actor_name: 'seed' } };
  const patientIds: number[] = [];
  for (let i = 0; i < PATIENTS.length; i++) {
    const p = await createPatient(w, patientInput(i, profile, refs, patientIds));
    patientIds.push(p.id);
  }
  await db.transaction(async (tx) => {
    await tx.insert(patientTags).values(patientTagRows(patientIds, refs.tagIds).map((r) => ({ ...base, ...r })));
    const logIds = await insertedIds(
      tx
        .insert(patientLogs)
        .values(patientLogRows(patientIds).map((r) => ({ ...base, ...r })))
        .returning({ id: patientLogs.id }),
    );
    // Every third entry carries a tag, so patient_log_tags has rows to read.
    const logTags = logIds
      .filter((_, i) => i % 3 === 0)
      .map((id, i) => ({ ...base, patient_log_id: id, tag_id: refs.tagIds[i % refs.tagIds.length] }));
    await tx.insert(patientLogTags).values(logTags);
    await tx.insert(formTemplates).values(FORM_TEMPLATES.map((f) => ({ ...base, ...f })));
    await tx
      .insert(clinicalNotes)
      .values(clinicalNoteRows(patientIds, refs.practitionerIds).map((r) => ({ ...base, ...r })));
    await insertCarePlans(tx, base, account.id, patientIds, refs.tagIds[CARE_PLAN_TAG]);
  });
  if (store) await uploadSampleFiles(w, store, patientIds);
  await seedAppointments(w, patientIds);
  await seedBilling(w, patientIds);
  // The demo practice lets the clinic job mark unarrived appointments missed (off for a new clinic).
  await updatePracticeSettings(db, account, w.actor, { mark_missed: true });
  return { created: true };
}
