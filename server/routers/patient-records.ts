/** Routers of the records around a patient file: tags placed on patients, timeline entries, clinical notes. */
import { addPatientTag, removePatientTag } from '../domain/patient-tags';
import { assertLivePatient } from '../domain/references';
import { loadPractitioner } from '../domain/scheduling/calendar';
import { createRecord } from '../domain/records';
import { invalid } from '../errors';
import { writeContext } from '../domain/write-context';
import { clinicalNotes } from '../resources/clinical_notes';
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

export const clinicalNotesRouter = router({
  ...readProcedures(clinicalNotes),
  create: createProcedure(clinicalNotes, (ctx, input) =>
    createRecord(writeContext(ctx), clinicalNotes, input, {
      check: async (tx) => {
        await assertLivePatient(tx, ctx.account.id, input.patient_id);
        if (input.practitioner_id != null) await loadPractitioner(tx, ctx.account.id, input.practitioner_id);
        if (input.created_at && Date.parse(input.created_at) > Date.now()) throw invalid('created_at', 'must be in the past (it imports a historical note)', 'invalid_input');
      },
      defaults: { created_by: ctx.principal.name },
    }),
  ),
});
