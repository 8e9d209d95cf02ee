import { z } from 'zod';
import { createPatient, deletePatient, updatePatient } from '../domain/patients/write';
import { embedPatientData } from '../domain/patients/embed';
import { writeContext } from '../domain/write-context';
import { patients } from '../resources/patients';
import { idParam, oneOutput } from '../resources/queries';
import { documentOutput, router, writeProcedure } from '../trpc';
import { readProcedures } from './read';

const tags = ['patients'];
const out = oneOutput(patients);

export const patientsRouter = router({
  ...readProcedures(patients, { load: (ctx, rows) => embedPatientData(ctx.db.db, ctx.account.id, rows) }),
  create: documentOutput(
    writeProcedure
      .meta({ openapi: { method: 'POST', path: '/patients', tags, summary: 'Create a patient', successDescription: 'Created' } })
      .input(patients.createInput)
      .mutation(async ({ ctx, input }) => ({ data: await createPatient(writeContext(ctx), input) })),
    out,
  ),
  update: documentOutput(
    writeProcedure
      .meta({ openapi: { method: 'PATCH', path: '/patients/{id}', tags, summary: 'Update a patient (partial)' } })
      .input(patients.updateInput.extend({ id: idParam }))
      .mutation(async ({ ctx, input: { id, ...rest } }) => ({ data: await updatePatient(writeContext(ctx), id as number, rest) })),
    out,
  ),
  delete: documentOutput(
    writeProcedure
      .meta({ openapi: { method: 'DELETE', path: '/patients/{id}', tags, summary: 'Soft-delete a patient', successDescription: 'Deleted (no body)' } })
      .input(z.strictObject({ id: idParam }))
      .mutation(async ({ ctx, input }) => {
        await deletePatient(writeContext(ctx), input.id);
      }),
    z.void(),
  ),
});
