/** Booking, rescheduling and removing appointments: one transaction each, with its audit entry and event. */
import { and, eq } from 'drizzle-orm';
import { appointments as table } from '../../../db/schema';
import { ApiError, invalid, notFound } from '../../errors';
import type { Db } from '../../../db/client';
import { changedFields, recordWrite } from '../../events/record';
import type { ActionOf } from '../../events/types';
import { appointments } from '../../resources/appointments';
import type { CreateInput, UpdateInput } from '../../resources/define';
import { mergedMetadataOrFail } from '../../resources/metadata';
import { findRow, getRow } from '../../resources/queries';
import { assertLivePatient } from '../references';
import { bookable } from '../scheduling/calendar';
import { bumpDiaries, type DiaryRef } from '../scheduling/diary-version';
import { clockFor } from '../../values/wall-time';
import { checkpoint, recorded, stamp, type WriteContext } from '../write-context';
import { checkDiary, lockAppointment, lockDiaries, resolveSlot, slotColumns } from './booking';

export type BookingInput = CreateInput<typeof appointments>;
type AppointmentUpdate = UpdateInput<typeof appointments>;

const TIMING = [
  'practitioner_id',
  'location_id',
  'appointment_type_id',
  'starts_at',
  'ends_at',
  'resource_id',
] as const;

/**
 * Every appointment write ends here: its audit entry and event, and the counters of the diaries it
 * touched (`diaries`: where the appointment was and where it is), which expire the cached searches that read them.
 */
export async function recordAppointmentWrite(
  tx: Db,
  w: WriteContext,
  id: number,
  action: ActionOf<'appointments'>,
  changes: Record<string, unknown>,
  diaries: readonly DiaryRef[],
) {
  await recordWrite(tx, { ...recorded(w), entity: 'appointments', entityId: id, action, changes });
  await bumpDiaries(tx, w.account.id, diaries);
}

export const readAppointment = async (w: WriteContext, id: number) =>
  appointments.toRecord(await getRow(w.db.db, appointments, w.account.id, id));

export async function bookAppointment(w: WriteContext, input: BookingInput) {
  const acc = w.account.id;
  const clock = clockFor(w.account.timezone);
  const id = await w.db.transaction(async (tx) => {
    await assertLivePatient(tx, acc, input.patient_id);
    await lockDiaries(tx, acc, [input.practitioner_id]);
    const slot = await resolveSlot(tx, clock, acc, input);
    if (input.group_master_id != null)
      await assertJoinsSession(tx, acc, input, slot.start, bookable(slot.type).maxAttendees);
    const allowClash = input.allow_clash ?? false;
    const placed = await checkDiary(tx, clock, acc, {
      practitionerId: input.practitioner_id,
      locationId: input.location_id,
      slot,
      resourceId: input.resource_id ?? null,
      allowClash,
    });
    await checkpoint(w, 'booking');
    const now = stamp(w);
    const [row] = await tx
      .insert(table)
      .values({
        account_id: acc,
        patient_id: input.patient_id,
        practitioner_id: input.practitioner_id,
        location_id: input.location_id,
        appointment_type_id: input.appointment_type_id,
        resource_id: placed.resourceId,
        ...slotColumns(slot),
        status: 'booked',
        notes: input.notes ?? null,
        allow_clash: allowClash,
        group_master_id: input.group_master_id ?? placed.sessionId,
        created_by: w.actor.actor_name,
        metadata: mergedMetadataOrFail({}, input.metadata),
        created_at: now,
        updated_at: now,
      })
      .returning({ id: table.id });
    await recordAppointmentWrite(tx, w, row.id, 'created', { ...input }, [
      { practitioner_id: input.practitioner_id, resource_id: placed.resourceId },
    ]);
    return row.id;
  });
  return readAppointment(w, id);
}

/** group_master_id names a live group session: same practitioner, location, type and start. */
async function assertJoinsSession(
  tx: Db,
  acc: number,
  input: BookingInput,
  start: number,
  maxAttendees: number | null,
) {
  const master = await findRow(tx, appointments, acc, input.group_master_id!);
  if (!master) throw invalid('group_master_id', 'is not an appointment of this account', 'invalid_input');
  if (maxAttendees == null)
    throw invalid('group_master_id', 'the appointment type is not a group type', 'invalid_input');
  const same =
    master.practitioner_id === input.practitioner_id &&
    master.location_id === input.location_id &&
    master.appointment_type_id === input.appointment_type_id &&
    Date.parse(master.starts_utc) === start;
  if (!same)
    throw invalid(
      'group_master_id',
      'names a session at another time, practitioner, location or type than this booking',
      'invalid_input',
    );
}

export async function updateAppointment(w: WriteContext, id: number, input: AppointmentUpdate) {
  const acc = w.account.id;
  const clock = clockFor(w.account.timezone);
  await w.db.transaction(async (tx) => {
    await lockAppointment(tx, acc, id);
    const before = await findRow(tx, appointments, acc, id);
    if (!before) throw notFound('Appointment');
    if (input.group_master_id !== undefined)
      throw invalid('group_master_id', 'is set only when booking', 'invalid_input');
    if (input.patient_id !== undefined) await assertLivePatient(tx, acc, input.patient_id);
    const set: Partial<typeof table.$inferInsert> = { updated_at: stamp(w) };
    if (input.notes !== undefined) set.notes = input.notes;
    if (input.patient_id !== undefined) set.patient_id = input.patient_id;
    if (input.metadata !== undefined) set.metadata = mergedMetadataOrFail(before.metadata, input.metadata);

    const moves = TIMING.some((k) => input[k] !== undefined && input[k] !== before[k]);
    if (moves) {
      if (before.status !== 'booked')
        throw new ApiError(
          'appointment_rule',
          `Only a booked appointment can be rescheduled; this one is ${before.status}`,
        );
      const next = {
        practitioner_id: input.practitioner_id ?? before.practitioner_id,
        location_id: input.location_id ?? before.location_id,
        appointment_type_id: input.appointment_type_id ?? before.appointment_type_id,
        starts_at: input.starts_at ?? before.starts_at,
        ends_at: input.ends_at ?? null,
        resource_id: input.resource_id !== undefined ? input.resource_id : before.resource_id,
      };
      // A moved appointment keeps its length unless its type changes or a new end is sent.
      const keptLength =
        input.appointment_type_id === undefined
          ? Date.parse(before.ends_utc) - Date.parse(before.starts_utc)
          : undefined;
      await lockDiaries(tx, acc, [before.practitioner_id, next.practitioner_id]);
      const slot = await resolveSlot(tx, clock, acc, next, keptLength);
      const allowClash = input.allow_clash ?? false;
      const placed = await checkDiary(tx, clock, acc, {
        practitionerId: next.practitioner_id,
        locationId: next.location_id,
        slot,
        resourceId: next.resource_id,
        allowClash,
        excludeId: id,
      });
      Object.assign(set, {
        practitioner_id: next.practitioner_id,
        location_id: next.location_id,
        appointment_type_id: next.appointment_type_id,
        resource_id: placed.resourceId,
        ...slotColumns(slot),
        allow_clash: allowClash,
      });
    }
    await tx
      .update(table)
      .set(set)
      .where(and(eq(table.account_id, acc), eq(table.id, id)));
    const after = (await findRow(tx, appointments, acc, id))!;
    const changes = changedFields(appointments.toRecord(before), appointments.toRecord(after));
    const rescheduled = 'starts_at' in changes || 'ends_at' in changes;
    await recordAppointmentWrite(tx, w, id, rescheduled ? 'rescheduled' : 'updated', changes, [before, after]);
  });
  return readAppointment(w, id);
}

export async function deleteAppointment(w: WriteContext, id: number): Promise<void> {
  const acc = w.account.id;
  await w.db.transaction(async (tx) => {
    await lockAppointment(tx, acc, id);
    const before = await findRow(tx, appointments, acc, id);
    if (!before) throw notFound('Appointment');
    const now = stamp(w);
    await tx
      .update(table)
      .set({ deleted_at: now, updated_at: now })
      .where(and(eq(table.account_id, acc), eq(table.id, id)));
    await recordAppointmentWrite(tx, w, id, 'deleted', { status: before.status }, [before]);
  });
}
