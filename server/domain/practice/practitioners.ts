/**
 * Practitioners set up by staff: the locations they work at and the appointment types they offer must
 * be this clinic's (422 location_not_found / appointment_type_not_found). A practitioner with
 * appointments, or linked to a team member, is not deleted (409): made inactive instead, they take no
 * bookings and keep their diary. Deleting one without either removes their weekly hours with them.
 */
import { and, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { appointments, appointmentTypes, locations, practitioners as table, users } from '../../../db/schema';
import { invalid } from '../../errors';
import { practitioners } from '../../resources/practitioners';
import type { RecordType, StaffCreateInput, StaffUpdateInput } from '../../resources/define';
import type { WriteContext } from '../write-context';
import { refuseIfUsed } from './in-use';
import { createSetupRecord, deleteSetupRecord, updateSetupRecord } from './setup-writes';

/** Every practitioner of the account with what they offer: a small table, filtered in memory. */
export const accountPractitioners = (tx: Db, accountId: number) =>
  tx
    .select({ id: table.id, location_ids: table.location_ids, appointment_type_ids: table.appointment_type_ids })
    .from(table)
    .where(eq(table.account_id, accountId));

/** The ids of `ids` that are not records of the account's table. */
async function missing(
  tx: Db,
  accountId: number,
  of: typeof locations | typeof appointmentTypes,
  ids: number[],
): Promise<number[]> {
  if (!ids.length) return [];
  const found = await tx
    .select({ id: of.id })
    .from(of)
    .where(and(eq(of.account_id, accountId), inArray(of.id, ids)));
  return ids.filter((id) => !found.some((f) => f.id === id));
}

async function checkOffers(tx: Db, accountId: number, p: RecordType<typeof practitioners>) {
  if ((await missing(tx, accountId, locations, p.location_ids)).length)
    throw invalid('location_ids', 'includes a location that is not one of this clinic’s', 'location_not_found');
  if ((await missing(tx, accountId, appointmentTypes, p.appointment_type_ids)).length) {
    throw invalid(
      'appointment_type_ids',
      'includes an appointment type that is not one of this clinic’s',
      'appointment_type_not_found',
    );
  }
}

export const createPractitioner = (w: WriteContext, input: StaffCreateInput<typeof practitioners>) =>
  createSetupRecord(w, practitioners, input, {
    defaults: { active: true, online_booking: false, location_ids: [], appointment_type_ids: [] },
    check: (tx, after) => checkOffers(tx, w.account.id, after),
  });

export const updatePractitioner = (w: WriteContext, id: number, input: StaffUpdateInput<typeof practitioners>) =>
  updateSetupRecord(w, practitioners, id, input, { check: (tx, after) => checkOffers(tx, w.account.id, after) });

export const deletePractitioner = (w: WriteContext, id: number) =>
  deleteSetupRecord(w, practitioners, id, {
    inUse: async (tx, before) => {
      const [booked] = await tx
        .select({ n: count() })
        .from(appointments)
        .where(and(eq(appointments.account_id, w.account.id), eq(appointments.practitioner_id, id)));
      const [members] = await tx
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.account_id, w.account.id), eq(users.practitioner_id, id)));
      refuseIfUsed(
        `${before.first_name} ${before.last_name}`,
        [
          [booked.n, 'appointment'],
          [members.n, 'linked team member'],
        ],
        'Make them inactive instead: they take no new bookings and their diary stays.',
      );
    },
  });
