import { createPatient, deletePatient, updatePatient } from '../domain/patients/write';
import { writeContext } from '../domain/write-context';
import { patients } from '../resources/patients';
import { router } from '../trpc';
import { readProcedures } from './read';
import { createProcedure, deleteProcedure, updateProcedure } from './write';

export const patientsRouter = router({
  ...readProcedures(patients),
  create: createProcedure(patients, (ctx, input) => createPatient(writeContext(ctx), input)),
  update: updateProcedure(patients, (ctx, id, input) => updatePatient(writeContext(ctx), id, input)),
  delete: deleteProcedure(patients, (ctx, id) => deletePatient(writeContext(ctx), id)),
});
