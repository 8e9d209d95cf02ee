/**
 * What makes a booking acceptable: its references, its times, and a free diary. Runs inside the
 * write's transaction, after `lockDiaries`, so the check and the insert are one atomic step.
 *
 * Never double-booking: on SQLite every write transaction starts with BEGIN IMMEDIATE and so runs
 * alone. On PostgreSQL a booking locks the diaries it reads (SELECT ... FOR UPDATE): its practitioners'
 * rows first, then (in `checkDiary`) the resources it may take, each kind in id order, so two writers
 * never wait on each other in a cycle; a concurrent booking of the same diary waits, then sees the
 * first one. Bookings of other practitioners and rooms do not wait (the location's row was locked
 * before: every booking of a location waited on every other, 45 ms on average under load). A change
 * to an existing appointment locks its row first, then the diaries.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { isPg } from '../../../db/dialect';
import { appointments, practitioners, resources as resourceRows } from '../../../db/schema';
import { ApiError, invalid } from '../../errors';
import {
  activeResources,
  assertResourceUsable,
  bookable,
  loadAppointmentType,
  loadLocation,
  loadPractitioner,
  offers,
  type AppointmentType,
} from '../scheduling/calendar';
import { loadDiary, MAX_APPOINTMENT_MS } from '../scheduling/diary';
import { place } from '../scheduling/placement';
import type { ZoneClock } from '../../values/wall-time';

const sorted = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);

export async function lockDiaries(tx: Db, accountId: number, practitionerIds: number[]): Promise<void> {
  if (!isPg) return;
  await tx
    .select({ id: practitioners.id })
    .from(practitioners)
    .where(and(eq(practitioners.account_id, accountId), inArray(practitioners.id, sorted(practitionerIds))))
    .orderBy(asc(practitioners.id))
    .for('update');
}

/** The resources a booking may take, after its practitioners' diaries (lockDiaries). */
async function lockResources(tx: Db, accountId: number, ids: number[]): Promise<void> {
  if (!isPg || !ids.length) return;
  await tx
    .select({ id: resourceRows.id })
    .from(resourceRows)
    .where(and(eq(resourceRows.account_id, accountId), inArray(resourceRows.id, sorted(ids))))
    .orderBy(asc(resourceRows.id))
    .for('update');
}

/** An existing appointment's row, locked before it is read for a change (two cancels cannot both pass). */
export async function lockAppointment(tx: Db, accountId: number, id: number): Promise<void> {
  if (!isPg) return;
  await tx
    .select({ id: appointments.id })
    .from(appointments)
    .where(and(eq(appointments.account_id, accountId), eq(appointments.id, id)))
    .for('update');
}

export interface Slot {
  practitioner_id: number;
  location_id: number;
  appointment_type_id: number;
  starts_at: string;
  ends_at?: string | null;
  resource_id?: number | null;
}

export interface ResolvedSlot {
  type: AppointmentType;
  start: number;
  end: number;
  starts_at: string;
  ends_at: string;
}

/** The stored time columns of a slot: the wall times the API speaks and the instants overlaps use. */
export const slotColumns = (s: ResolvedSlot) => ({
  starts_at: s.starts_at,
  ends_at: s.ends_at,
  starts_utc: new Date(s.start).toISOString(),
  ends_utc: new Date(s.end).toISOString(),
});

/** Checks the references and times of a slot; the end defaults to the start plus `defaultMs`. */
export async function resolveSlot(
  tx: Db,
  clock: ZoneClock,
  accountId: number,
  s: Slot,
  defaultMs?: number,
): Promise<ResolvedSlot> {
  await loadLocation(tx, accountId, s.location_id);
  const practitioner = await loadPractitioner(tx, accountId, s.practitioner_id);
  const type = await loadAppointmentType(tx, accountId, s.appointment_type_id);
  if (!type.active) throw invalid('appointment_type_id', 'is not active', 'invalid_input');
  if (!offers(practitioner, s.location_id, type.id)) {
    throw invalid(
      'practitioner_id',
      'does not offer this appointment type at this location (or is inactive)',
      'invalid_input',
    );
  }
  if (s.resource_id != null) await assertResourceUsable(tx, accountId, s.resource_id, s.location_id);
  const start = clock.toUtc(s.starts_at);
  if (start == null) throw invalid('starts_at', `does not exist in ${clock.name}: the clocks go forward over it`);
  let end = start + (defaultMs ?? type.duration_minutes * 60_000);
  if (s.ends_at != null) {
    const e = clock.toUtc(s.ends_at);
    if (e == null) throw invalid('ends_at', `does not exist in ${clock.name}: the clocks go forward over it`);
    end = e;
  }
  if (end <= start) throw invalid('ends_at', 'must be after starts_at');
  if (end - start > MAX_APPOINTMENT_MS) throw invalid('ends_at', 'must be at most 24 hours after starts_at');
  return { type, start, end, starts_at: clock.toWall(start), ends_at: clock.toWall(end) };
}

export interface DiaryCheck {
  practitionerId: number;
  locationId: number;
  slot: ResolvedSlot;
  resourceId: number | null;
  allowClash: boolean;
  /** The appointment being moved or reinstated: its own time is not a clash. */
  excludeId?: number;
}

/**
 * Refuses a slot the diary cannot take (409 slot_unavailable, or group_full) and returns the resource
 * and group session the booking goes into. `allow_clash` skips the diary, not the references.
 */
export async function checkDiary(
  tx: Db,
  clock: ZoneClock,
  accountId: number,
  c: DiaryCheck,
): Promise<{ resourceId: number | null; sessionId: number | null }> {
  const { type, start, end } = c.slot;
  const resources =
    c.resourceId != null
      ? [c.resourceId]
      : type.requires_resource
        ? await activeResources(tx, accountId, c.locationId)
        : [];
  if (type.requires_resource && !resources.length)
    throw invalid(
      'resource_id',
      'this type needs a resource and the location has no active one',
      'resource_unavailable',
    );
  await lockResources(tx, accountId, resources);
  if (c.allowClash) {
    return { resourceId: c.resourceId ?? (type.requires_resource ? resources[0] : null), sessionId: null };
  }
  const diary = await loadDiary(tx, clock, {
    accountId,
    locationId: c.locationId,
    practitionerIds: [c.practitionerId],
    resourceIds: resources,
    from: clock.toWall(start).slice(0, 10),
    to: clock.toWall(end - 1).slice(0, 10),
    excludeAppointmentId: c.excludeId,
  });
  const window = diary.workingTime(c.practitionerId, c.locationId, false).find((w) => w.start <= start && end <= w.end);
  if (!window) {
    throw new ApiError(
      'slot_unavailable',
      'The practitioner is not working at this location then (outside working hours, or in a break, blockout or closure); allow_clash: true overbooks',
    );
  }
  const placed = place(
    diary,
    bookable(type),
    { practitionerId: c.practitionerId, start, end, windowResourceId: window.resourceId },
    resources,
    c.resourceId,
  );
  if (placed.ok) return { resourceId: placed.resourceId, sessionId: placed.sessionId };
  if (placed.reason === 'group_full') throw new ApiError('group_full', 'This group session has no places left');
  throw new ApiError(
    'slot_unavailable',
    placed.reason === 'resource_busy'
      ? 'No suitable resource is free at that time; allow_clash: true overbooks'
      : 'The practitioner already has an appointment at that time; allow_clash: true overbooks',
  );
}
