import { moveAppointment, type LifecycleAction } from '../domain/appointments/lifecycle';
import { bookAppointment, deleteAppointment, updateAppointment, type BookingInput } from '../domain/appointments/write';
import { writeContext } from '../domain/write-context';
import { APPOINTMENT_ACTIONS, appointments } from '../resources/appointments';
import { idParam, oneOutput } from '../resources/queries';
import { documentOutput, router, writeProcedure } from '../trpc';
import { readProcedures } from './read';
import { createProcedure, deleteProcedure, updateProcedure } from './write';

const lifecycle = (action: LifecycleAction) =>
  documentOutput(
    writeProcedure
      .meta({ openapi: { method: 'POST', path: `/appointments/{id}/${action}`, tags: ['appointments'], summary: APPOINTMENT_ACTIONS[action].summary, description: APPOINTMENT_ACTIONS[action].description }, status: 200 })
      .input(APPOINTMENT_ACTIONS[action].input.extend({ id: idParam }))
      .mutation(async ({ ctx, input }) => ({ data: await moveAppointment(writeContext(ctx), input.id as number, action, (input as { reason?: string | null }).reason) })),
    oneOutput(appointments),
  );

export const appointmentsRouter = router({
  ...readProcedures(appointments),
  create: createProcedure(appointments, (ctx, input) => bookAppointment(writeContext(ctx), input as BookingInput)),
  update: updateProcedure(appointments, (ctx, id, input) => updateAppointment(writeContext(ctx), id, input)),
  delete: deleteProcedure(appointments, (ctx, id) => deleteAppointment(writeContext(ctx), id)),
  cancel: lifecycle('cancel'),
  arrive: lifecycle('arrive'),
  miss: lifecycle('miss'),
  reinstate: lifecycle('reinstate'),
});
