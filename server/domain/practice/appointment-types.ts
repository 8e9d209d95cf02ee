/**
 * Appointment types set up by staff. A type that appointments use is not deleted (409): it is made
 * inactive instead (`active: false`), which stops new bookings and keeps past appointments' type.
 */
import { and, count, eq } from 'drizzle-orm';
import { appointments } from '../../../db/schema';
import { appointmentTypes } from '../../resources/appointment_types';
import type { StaffCreateInput, StaffUpdateInput } from '../../resources/define';
import type { WriteContext } from '../write-context';
import { refuseIfUsed } from './in-use';
import { accountPractitioners } from './practitioners';
import { createSetupRecord, deleteSetupRecord, updateSetupRecord } from './setup-writes';

export const createAppointmentType = (w: WriteContext, input: StaffCreateInput<typeof appointmentTypes>) =>
  createSetupRecord(w, appointmentTypes, input, {
    defaults: { active: true, online_booking: false, requires_resource: false },
  });

export const updateAppointmentType = (w: WriteContext, id: number, input: StaffUpdateInput<typeof appointmentTypes>) =>
  updateSetupRecord(w, appointmentTypes, id, input);

export const deleteAppointmentType = (w: WriteContext, id: number) =>
  deleteSetupRecord(w, appointmentTypes, id, {
    inUse: async (tx, before) => {
      const [booked] = await tx
        .select({ n: count() })
        .from(appointments)
        .where(and(eq(appointments.account_id, w.account.id), eq(appointments.appointment_type_id, id)));
      const offering = (await accountPractitioners(tx, w.account.id)).filter((p) =>
        p.appointment_type_ids.includes(id),
      ).length;
      refuseIfUsed(
        before.name,
        [
          [booked.n, 'appointment'],
          [offering, 'practitioner offering it', 'practitioners offering it'],
        ],
        booked.n
          ? 'Make it inactive instead: it can no longer be booked and past appointments keep it.'
          : 'Take it off its practitioners first, or make it inactive.',
      );
    },
  });
