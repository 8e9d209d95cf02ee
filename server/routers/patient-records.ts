/** Routers of the records around a patient file: tags placed on patients, timeline entries, clinical notes. */
import { addPatientTag, removePatientTag } from '../domain/patient-tags';
import { createClinicalNote, createPatientLog } from '../domain/clinical-notes';
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
  create: createProcedure(patientLogs, (ctx, input) => createPatientLog(writeContext(ctx), input)),
});

export const clinicalNotesRouter = router({
  ...readProcedures(clinicalNotes),
  create: createProcedure(clinicalNotes, (ctx, input) => createClinicalNote(writeContext(ctx), input)),
});
