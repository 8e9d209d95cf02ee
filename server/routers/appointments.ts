import { z } from 'zod';
import { moveAppointment, type LifecycleAction } from '../domain/appointments/lifecycle';
import { bookAppointment, deleteAppointment, updateAppointment, type BookingInput } from '../domain/appointments/write';
import { writeContext } from '../domain/write-context';
import { appointments } from '../resources/appointments';
import { idParam, oneOutput } from '../resources/queries';
import { documentOutput, router, writeProcedure } from '../trpc';
import { readProcedures } from './read';
import { createProcedure, deleteProcedure, updateProcedure } from './write';

const ACTIONS: Record<LifecycleAction, { summary: string; description: string; input: z.ZodObject }> = {
  cancel: {
    summary: 'Cancel an appointment',
    description: 'booked → cancelled; the slot becomes free. 409 appointment_rule from any other status.',
    input: z.strictObject({ reason: z.string().max(500).nullable().optional().describe('Why it was cancelled') }),
  },
  arrive: {
    summary: 'Mark the patient arrived',
    description: 'booked → arrived, from the day of the appointment. Final: an arrival cannot be undone.',
    input: z.strictObject({}),
  },
  miss: {
    summary: 'Mark the appointment missed (did not arrive)',
    description: 'booked → missed, once it has started. 409 appointment_rule for an arrived patient.',
    input: z.strictObject({}),
  },
  reinstate: {
    summary: 'Reinstate a cancelled or missed appointment',
    description: 'cancelled | missed → booked, only if the slot is still free (409 slot_unavailable).',
    input: z.strictObject({}),
  },
};

const lifecycle = (action: LifecycleAction) =>
  documentOutput(
    writeProcedure
      .meta({ openapi: { method: 'POST', path: `/appointments/{id}/${action}`, tags: ['appointments'], summary: ACTIONS[action].summary, description: ACTIONS[action].description }, status: 200 })
      .input(ACTIONS[action].input.extend({ id: idParam }))
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
