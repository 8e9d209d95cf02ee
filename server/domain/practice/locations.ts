/**
 * Locations set up by staff. Deleting one that anything refers to is refused (409): the table has no
 * archived state, and appointments, invoices and patients keep their location for the record. To stop
 * bookings at a site, switch off its online booking and remove it from its practitioners.
 */
import { and, count, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { appointments, invoices, patients, practitionerAvailabilities, resources } from '../../../db/schema';
import { locations } from '../../resources/locations';
import type { StaffCreateInput, StaffUpdateInput } from '../../resources/define';
import type { WriteContext } from '../write-context';
import { refuseIfUsed, type Uses } from './in-use';
import { accountPractitioners } from './practitioners';
import { createSetupRecord, deleteSetupRecord, updateSetupRecord } from './setup-writes';

export const createLocation = (w: WriteContext, input: StaffCreateInput<typeof locations>) =>
  createSetupRecord(w, locations, input, { defaults: { online_booking: false } });

export const updateLocation = (w: WriteContext, id: number, input: StaffUpdateInput<typeof locations>) =>
  updateSetupRecord(w, locations, id, input);

async function uses(tx: Db, accountId: number, id: number): Promise<Uses[]> {
  const n = async (
    table: typeof appointments | typeof invoices | typeof practitionerAvailabilities | typeof resources,
  ) =>
    (
      await tx
        .select({ n: count() })
        .from(table)
        .where(and(eq(table.account_id, accountId), eq(table.location_id, id)))
    )[0].n;
  const [patientCount] = await tx
    .select({ n: count() })
    .from(patients)
    .where(and(eq(patients.account_id, accountId), eq(patients.default_location_id, id)));
  const working = (await accountPractitioners(tx, accountId)).filter((p) => p.location_ids.includes(id)).length;
  return [
    [await n(appointments), 'appointment'],
    [await n(practitionerAvailabilities), 'row of opening hours', 'rows of opening hours'],
    [working, 'practitioner'],
    [await n(resources), 'room or resource', 'rooms or resources'],
    [await n(invoices), 'invoice'],
    [patientCount.n, 'patient with it as their usual location', 'patients with it as their usual location'],
  ];
}

export const deleteLocation = (w: WriteContext, id: number) =>
  deleteSetupRecord(w, locations, id, {
    inUse: async (tx, before) =>
      refuseIfUsed(
        `${before.name}`,
        await uses(tx, w.account.id, id),
        'Remove its opening hours and take it off its practitioners first; a location with appointments or invoices stays for their history (switch off online booking to stop new bookings).',
      ),
  });
