/**
 * Rooms and equipment (the `resources` table: calendar resources) set up by staff. The location must be
 * this clinic's (422 location_not_found). One that appointments or opening-hours rows name is not deleted
 * (409): archived instead (`status: archived`) it is retired from booking and past appointments keep
 * it. Resources have no event types in the catalogue: their writes are audited only.
 */
import { and, count, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { appointments, locations, practitionerAvailabilities } from '../../../db/schema';
import { invalid } from '../../errors';
import type { RecordType, StaffCreateInput, StaffUpdateInput } from '../../resources/define';
import { resources } from '../../resources/resources';
import type { WriteContext } from '../write-context';
import { refuseIfUsed } from './in-use';
import { createSetupRecord, deleteSetupRecord, updateSetupRecord } from './setup-writes';

async function checkLocation(tx: Db, accountId: number, r: RecordType<typeof resources>) {
  const [found] = await tx
    .select({ id: locations.id })
    .from(locations)
    .where(and(eq(locations.account_id, accountId), eq(locations.id, r.location_id)));
  if (!found) throw invalid('location_id', 'is not one of this clinic’s locations', 'location_not_found');
}

export const createRoom = (w: WriteContext, input: StaffCreateInput<typeof resources>) =>
  createSetupRecord(w, resources, input, {
    defaults: { sort_order: 0, status: 'active', locked: false },
    check: (tx, after) => checkLocation(tx, w.account.id, after),
  });

export const updateRoom = (w: WriteContext, id: number, input: StaffUpdateInput<typeof resources>) =>
  updateSetupRecord(w, resources, id, input, { check: (tx, after) => checkLocation(tx, w.account.id, after) });

export const deleteRoom = (w: WriteContext, id: number) =>
  deleteSetupRecord(w, resources, id, {
    inUse: async (tx, before) => {
      const [booked] = await tx
        .select({ n: count() })
        .from(appointments)
        .where(and(eq(appointments.account_id, w.account.id), eq(appointments.resource_id, id)));
      const [hours] = await tx
        .select({ n: count() })
        .from(practitionerAvailabilities)
        .where(
          and(eq(practitionerAvailabilities.account_id, w.account.id), eq(practitionerAvailabilities.resource_id, id)),
        );
      refuseIfUsed(
        before.name,
        [
          [booked.n, 'appointment'],
          [hours.n, 'row of opening hours', 'rows of opening hours'],
        ],
        'Archive it instead (status Archived): it can no longer be booked and past appointments keep it.',
      );
    },
  });
