/** Patient writes: create, patch (numbers reconciled by id, address merged) and soft delete. */
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { addresses, numbers, patients, referralSources } from '../../../db/schema';
import { ApiError, invalid, notFound } from '../../errors';
import { cascade } from '../cascade';
import { announce, announceDeleted, changedFields, recordWrite } from '../../events/record';
import { storedValues, type CreateInput, type RowType, type UpdateInput } from '../../resources/define';
import { mergedMetadataOrFail } from '../../resources/metadata';
import { patients as patientResource } from '../../resources/patients';
import { findRow, getRow } from '../../resources/queries';
import { reconcileById } from '../reconcile';
import { recorded, stamp, type WriteContext } from '../write-context';
import { assertLivePatient } from '../references';
import { loadLocation } from '../scheduling/calendar';
import { normalizeNumber } from './phone';

type PatientCreate = CreateInput<typeof patientResource>;
type PatientUpdate = UpdateInput<typeof patientResource>;
type PatientRow = RowType<typeof patientResource>;
type NumberInput = NonNullable<PatientUpdate['numbers']>[number];
type AddressInput = NonNullable<PatientUpdate['address']>;

export async function createPatient(w: WriteContext, input: PatientCreate) {
  const id = await w.db.transaction(async (tx) => {
    await checkReferences(tx, w, input, null);
    const now = stamp(w);
    const [row] = await tx
      .insert(patients)
      .values({
        ...storedValues(patientResource, input),
        first_name: input.first_name,
        last_name: input.last_name,
        sex: input.sex === 'prefer_not_to_say' ? null : (input.sex ?? null),
        locale: input.locale === undefined ? w.account.locale : input.locale,
        blocked: input.blocked ?? false,
        communication_preferences: input.communication_preferences ?? {},
        metadata: mergedMetadataOrFail({}, input.metadata),
        account_id: w.account.id,
        created_at: now,
        updated_at: now,
        created_by: w.actor.actor_name,
      })
      .returning({ id: patients.id });
    await saveNumbers(tx, w, row.id, input.numbers ?? undefined, now);
    if (input.address) await saveAddress(tx, w, row.id, input.address, now);
    await recordWrite(tx, { ...recorded(w), entity: 'patients', entityId: row.id, action: 'created', changes: input });
    return row.id;
  });
  return readPatient(w, id);
}

export async function updatePatient(w: WriteContext, id: number, input: PatientUpdate) {
  await w.db.transaction(async (tx) => {
    const before = await loadPatient(tx, w, id);
    await checkReferences(tx, w, input, before);
    const now = stamp(w);
    const set = storedValues(patientResource, input);
    if (input.sex === 'prefer_not_to_say') set.sex = null;
    if (input.communication_preferences)
      set.communication_preferences = { ...before.communication_preferences, ...input.communication_preferences };
    if (input.metadata) set.metadata = mergedMetadataOrFail(before.metadata, input.metadata);
    if (input.numbers !== undefined) await saveNumbers(tx, w, id, input.numbers ?? [], now);
    if (input.address !== undefined) await saveAddress(tx, w, id, input.address, now);
    await tx
      .update(patients)
      .set({ ...set, updated_at: now })
      .where(and(eq(patients.account_id, w.account.id), eq(patients.id, id)));
    const after = await loadPatient(tx, w, id);
    await recordWrite(tx, {
      ...recorded(w),
      entity: 'patients',
      entityId: id,
      action: 'updated',
      changes: changedFields(patientResource.toRecord(before), patientResource.toRecord(after)),
    });
  });
  return readPatient(w, id);
}

export async function deletePatient(w: WriteContext, id: number): Promise<void> {
  await w.db.transaction(async (tx) => {
    await loadPatient(tx, w, id);
    const now = stamp(w);
    await tx
      .update(patients)
      .set({ deleted_at: now, updated_at: now })
      .where(and(eq(patients.account_id, w.account.id), eq(patients.id, id)));
    const gone = await cascade(tx, w.account.id, 'patients', [id], now);
    await recordWrite(tx, { ...recorded(w), entity: 'patients', entityId: id, action: 'deleted', changes: { gone } });
  });
}

async function readPatient(w: Pick<WriteContext, 'db' | 'account'>, id: number) {
  return patientResource.toRecord(await getRow(w.db.db, patientResource, w.account.id, id));
}

async function loadPatient(tx: Db, w: Pick<WriteContext, 'account'>, id: number): Promise<PatientRow> {
  const row = await findRow(tx, patientResource, w.account.id, id);
  if (!row) throw notFound('Patient');
  return row;
}

/** The referential rules of a patient write; `before` is the stored patient on update. */
async function checkReferences(tx: Db, w: WriteContext, input: PatientUpdate, before: PatientRow | null) {
  const acc = w.account.id;
  if (input.default_location_id != null) await loadLocation(tx, acc, input.default_location_id, 'default_location_id');
  const idSent = input.referral_source_id !== undefined;
  const typeSent = input.referral_source_type !== undefined;
  if (idSent !== typeSent || (input.referral_source_id === null) !== (input.referral_source_type === null)) {
    const missing = idSent && input.referral_source_id !== null ? 'referral_source_type' : 'referral_source_id';
    throw new ApiError(
      'referral_source_incomplete',
      'referral_source_id and referral_source_type must be sent together',
      {
        [missing]: [
          'must be sent together with ' +
            (missing === 'referral_source_id' ? 'referral_source_type' : 'referral_source_id'),
        ],
      },
    );
  }
  if (input.referral_source_id != null && input.referral_source_type === 'referral_source') {
    const [src] = await tx
      .select({ id: referralSources.id })
      .from(referralSources)
      .where(
        and(
          eq(referralSources.account_id, acc),
          eq(referralSources.id, input.referral_source_id),
          eq(referralSources.active, true),
        ),
      );
    if (!src)
      throw invalid(
        'referral_source_id',
        'is not an active referral source of this account',
        'referral_source_not_found',
      );
  }
  if (input.referral_source_id != null && input.referral_source_type === 'patient') {
    if (before && before.id === input.referral_source_id)
      throw invalid('referral_source_id', 'a patient cannot refer themselves', 'invalid_input');
    await assertLivePatient(tx, acc, input.referral_source_id, 'referral_source_id');
  }
}

/**
 * Numbers reconcile by id: an entry with a stored id updates that number, one without is added, and
 * stored numbers left out are removed. A list with no ids at all replaces everything.
 */
async function saveNumbers(tx: Db, w: WriteContext, patientId: number, list: NumberInput[] | undefined, now: string) {
  if (list === undefined) return;
  const acc = w.account.id;
  const stored = await tx
    .select({ id: numbers.id })
    .from(numbers)
    .where(and(eq(numbers.account_id, acc), eq(numbers.patient_id, patientId)));
  const removed = reconcileById(
    stored.map((n) => n.id),
    list,
    'numbers',
    'a number of this patient',
  );
  const normalized = list.map((n, i) => ({ id: n.id, type: n.type, ...normalizeNumber(n, i, w.account) }));
  if (removed.length) {
    await tx
      .delete(numbers)
      .where(and(eq(numbers.account_id, acc), eq(numbers.patient_id, patientId), inArray(numbers.id, removed)));
    for (const id of removed) await announceDeleted(tx, acc, 'numbers', id, now);
  }
  for (const { id, ...n } of normalized) {
    if (id !== undefined) {
      await tx
        .update(numbers)
        .set({ ...n, updated_at: now })
        .where(and(eq(numbers.account_id, acc), eq(numbers.id, id)));
      await announce(tx, acc, 'numbers.updated', 'numbers', id, now);
    } else {
      const [row] = await tx
        .insert(numbers)
        .values({ ...n, account_id: acc, patient_id: patientId, created_at: now, updated_at: now })
        .returning({ id: numbers.id });
      await announce(tx, acc, 'numbers.created', 'numbers', row.id, now);
    }
  }
}

/** The address: null removes it; otherwise only the keys sent change. */
async function saveAddress(tx: Db, w: WriteContext, patientId: number, input: AddressInput | null, now: string) {
  const acc = w.account.id;
  const where = and(
    eq(addresses.account_id, acc),
    eq(addresses.entity_type, 'Patient'),
    eq(addresses.entity_id, patientId),
  );
  const [stored] = await tx.select({ id: addresses.id }).from(addresses).where(where);
  if (input === null) {
    if (stored) {
      await tx.delete(addresses).where(and(where, eq(addresses.id, stored.id)));
      await announceDeleted(tx, acc, 'addresses', stored.id, now);
    }
    return;
  }
  if (stored) {
    await tx
      .update(addresses)
      .set({ ...input, updated_at: now })
      .where(and(where, eq(addresses.id, stored.id)));
    await announce(tx, acc, 'addresses.updated', 'addresses', stored.id, now);
  } else {
    const [row] = await tx
      .insert(addresses)
      .values({
        ...input,
        account_id: acc,
        entity_type: 'Patient',
        entity_id: patientId,
        created_at: now,
        updated_at: now,
      })
      .returning({ id: addresses.id });
    await announce(tx, acc, 'addresses.created', 'addresses', row.id, now);
  }
}
