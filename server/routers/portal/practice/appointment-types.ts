/** What can be booked: name, length, colour, who may book online. */
import { asc, eq } from 'drizzle-orm';
import { appointmentTypes as typeTable } from '../../../../db/schema';
import {
  createAppointmentType,
  deleteAppointmentType,
  updateAppointmentType,
} from '../../../domain/practice/appointment-types';
import { appointmentTypes } from '../../../resources/appointment_types';
import { recordId } from '../../../resources/fields';
import { router } from '../../../trpc';
import { as, byId, manage, read } from './procedures';

export const appointmentTypesRouter = router({
  list: read.query(async ({ ctx }) => {
    const rows = await ctx.db.db
      .select()
      .from(typeTable)
      .where(eq(typeTable.account_id, ctx.account.id))
      .orderBy(asc(typeTable.name), asc(typeTable.id));
    return { data: rows.map(appointmentTypes.toRecord) };
  }),
  create: manage
    .input(appointmentTypes.staffCreateInput)
    .mutation(({ ctx, input }) => createAppointmentType(as(ctx), input)),
  update: manage
    .input(appointmentTypes.staffUpdateInput.extend({ id: recordId }))
    .mutation(({ ctx, input: { id, ...input } }) => updateAppointmentType(as(ctx), id, input)),
  delete: manage.input(byId).mutation(({ ctx, input }) => deleteAppointmentType(as(ctx), input.id)),
});
