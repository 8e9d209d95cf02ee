import { moveAppointment } from '../domain/appointments/lifecycle';
import { bookAppointment, deleteAppointment, updateAppointment } from '../domain/appointments/write';
import { writeContext } from '../domain/write-context';
import { APPOINTMENT_ACTIONS, appointments, type LifecycleAction } from '../resources/appointments';
import { idParam, oneOutput } from '../resources/queries';
import { documentOutput, router, writeProcedure } from '../trpc';
import { readProcedures } from './read';
import { createProcedure, deleteProcedure, updateProcedure } from './write';

const action = (name: LifecycleAction) =>
  writeProcedure.meta({
    openapi: {
      method: 'POST',
      path: `/appointments/{id}/${name}`,
      tags: ['appointments'],
      summary: APPOINTMENT_ACTIONS[name].summary,
      description: APPOINTMENT_ACTIONS[name].description,
    },
    status: 200,
  });

/** The actions without a body: arrive, miss, reinstate. */
const lifecycle = (name: Exclude<LifecycleAction, 'cancel'>) =>
  documentOutput(
    action(name)
      .input(APPOINTMENT_ACTIONS[name].input.extend({ id: idParam }))
      .mutation(async ({ ctx, input }) => ({ data: await moveAppointment(writeContext(ctx), input.id, name) })),
    oneOutput(appointments),
  );

export const appointmentsRouter = router({
  ...readProcedures(appointments),
  create: createProcedure(appointments, (ctx, input) => bookAppointment(writeContext(ctx), input)),
  update: updateProcedure(appointments, (ctx, id, input) => updateAppointment(writeContext(ctx), id, input)),
  delete: deleteProcedure(appointments, (ctx, id) => deleteAppointment(writeContext(ctx), id)),
  cancel: documentOutput(
    action('cancel')
      .input(APPOINTMENT_ACTIONS.cancel.input.extend({ id: idParam }))
      .mutation(async ({ ctx, input }) => ({
        data: await moveAppointment(writeContext(ctx), input.id, 'cancel', input.reason),
      })),
    oneOutput(appointments),
  ),
  arrive: lifecycle('arrive'),
  miss: lifecycle('miss'),
  reinstate: lifecycle('reinstate'),
});
