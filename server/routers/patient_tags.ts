/** The patient_tags router: place a tag on a patient, remove it (both announced as patients.updated). */
import { addPatientTag, removePatientTag } from '../domain/patient_tags';
import { writeContext } from '../domain/write-context';
import { patientTags } from '../resources/patient_tags';
import { router } from '../trpc';
import { createProcedure, deleteProcedure } from './write';

export const patientTagsRouter = router({
  create: createProcedure(patientTags, (ctx, input) => addPatientTag(writeContext(ctx), input)),
  delete: deleteProcedure(patientTags, (ctx, id) => removePatientTag(writeContext(ctx), id)),
});
