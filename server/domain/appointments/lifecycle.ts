/**
 * The appointment lifecycle (docs/decisions.md, "Appointment states"):
 *
 *   booked ──cancel──▶ cancelled ──reinstate──▶ booked
 *   booked ──arrive──▶ arrived            (final: cannot be un-arrived, cancelled or missed)
 *   booked ──miss────▶ missed ──reinstate──▶ booked
 *
 * Anything else is 409 appointment_rule. Reinstating re-checks the diary: the slot may have been
 * given away meanwhile (409 slot_unavailable).
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { appointments as table, type AppointmentStatus } from '../../../db/schema';
import { ApiError, notFound } from '../../errors';
import { appointments, type LifecycleAction } from '../../resources/appointments';
import type { RowType } from '../../resources/define';
import { findRow } from '../../resources/queries';
import { clockFor } from '../../values/wall-time';
import { checkpoint, type WriteContext } from '../write-context';
import { checkDiary, lockAppointment, lockDiaries, resolveSlot } from './booking';
import { readAppointment, recordAppointmentWrite } from './write';

export type { LifecycleAction };

const PAST: Record<LifecycleAction, 'cancelled' | 'arrived' | 'missed' | 'reinstated'> = {
  cancel: 'cancelled',
  arrive: 'arrived',
  miss: 'missed',
  reinstate: 'reinstated',
};

/** Why an action is refused from a status, or null when it is allowed. */
function refusal(action: LifecycleAction, status: AppointmentStatus): string | null {
  if (action === 'reinstate')
    return status === 'cancelled' || status === 'missed'
      ? null
      : `Only a cancelled or missed appointment can be reinstated; this one is ${status}`;
  if (status === 'booked') return null;
  if (status === 'arrived')
    return `The patient has arrived: an arrival cannot be undone, so the appointment cannot be ${PAST[action]}`;
  if (status === PAST[action]) return `The appointment is already ${status}`;
  return `The appointment is ${status}; reinstate it first`;
}

export async function moveAppointment(w: WriteContext, id: number, action: LifecycleAction, reason?: string | null) {
  const acc = w.account.id;
  await w.db.transaction(async (tx) => {
    await lockAppointment(tx, acc, id);
    const before = await findRow(tx, appointments, acc, id);
    if (!before) throw notFound('Appointment');
    const refused = refusal(action, before.status);
    if (refused) throw new ApiError('appointment_rule', refused);
    await checkpoint(w, 'appointment_change');
    const now = new Date(w.now?.() ?? Date.now());
    const set: Partial<typeof table.$inferInsert> = { updated_at: now.toISOString() };
    if (action === 'arrive') {
      const clock = clockFor(w.account.timezone);
      if (before.starts_at.slice(0, 10) > clock.today())
        throw new ApiError('appointment_rule', 'The patient cannot arrive before the day of the appointment');
      Object.assign(set, { status: 'arrived', arrived_at: set.updated_at });
    } else if (action === 'miss') {
      if (Date.parse(before.starts_utc) > now.getTime())
        throw new ApiError('appointment_rule', 'The appointment has not started yet, so it cannot be marked missed');
      set.status = 'missed';
    } else if (action === 'cancel') {
      Object.assign(set, { status: 'cancelled', cancelled_at: set.updated_at, cancellation_reason: reason ?? null });
    } else {
      await assertStillFree(w, tx, before);
      Object.assign(set, { status: 'booked', cancelled_at: null, cancellation_reason: null });
    }
    await tx
      .update(table)
      .set(set)
      .where(and(eq(table.account_id, acc), eq(table.id, id)));
    await recordAppointmentWrite(
      tx,
      w,
      id,
      PAST[action],
      { status: { from: before.status, to: set.status }, ...(reason ? { reason } : {}) },
      [before],
    );
  });
  return readAppointment(w, id);
}

/** A reinstated appointment takes its slot back only if nobody else has it (unless it was an overbooking). */
async function assertStillFree(w: WriteContext, tx: Db, a: RowType<typeof appointments>) {
  const acc = w.account.id;
  const clock = clockFor(w.account.timezone);
  await lockDiaries(tx, acc, [a.practitioner_id]);
  const slot = {
    practitioner_id: a.practitioner_id,
    location_id: a.location_id,
    appointment_type_id: a.appointment_type_id,
    starts_at: a.starts_at,
    ends_at: a.ends_at,
    resource_id: a.resource_id,
  };
  const resolved = await resolveSlot(tx, clock, acc, slot);
  await checkDiary(tx, clock, acc, {
    practitionerId: slot.practitioner_id,
    locationId: slot.location_id,
    slot: resolved,
    resourceId: slot.resource_id,
    allowClash: a.allow_clash,
    excludeId: a.id,
  });
}
