/** The patient_logs router: timeline entries, read and created. */
import { createPatientLog } from '../domain/patient_logs';
import { writeContext } from '../domain/write-context';
import { patientLogs } from '../resources/patient_logs';
import { router } from '../trpc';
import { readProcedures } from './read';
import { createProcedure } from './write';

export const patientLogsRouter = router({
  ...readProcedures(patientLogs),
  create: createProcedure(patientLogs, (ctx, input) => createPatientLog(writeContext(ctx), input)),
});
