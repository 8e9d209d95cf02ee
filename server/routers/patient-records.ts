/** Routers of the records around a patient file: tags placed on patients and timeline entries. */
import { addPatientTag, removePatientTag } from '../domain/patient-tags';
import { assertLivePatient } from '../domain/patients/exists';
import { createRecord } from '../domain/records';
import { writeContext } from '../domain/write-context';
import { patientLogs } from '../resources/patient_logs';
import { patientTags } from '../resources/patient_tags';
import { router } from '../trpc';
import { readProcedures } from './read';
import { createProcedure, deleteProcedure } from './write';

export const patientTagsRouter = router({
  create: createProcedure(patientTags, (ctx, input) => addPatientTag(writeContext(ctx), input as { patient_id: number; tag_id: number })),
  delete: deleteProcedure(patientTags, (ctx, id) => removePatientTag(writeContext(ctx), id)),
});

export const patientLogsRouter = router({
  ...readProcedures(patientLogs),
  create: createProcedure(patientLogs, (ctx, input) =>
    createRecord(writeContext(ctx), patientLogs, input, {
      check: (tx) => assertLivePatient(tx, ctx.account.id, input.patient_id),
      defaults: { source: 'api', created_by: ctx.principal.name },
    }),
  ),
});
