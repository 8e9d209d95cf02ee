/** Timeline entries: records on a live patient's file, marked as coming from the API. */
import { patientLogs } from '../resources/patient_logs';
import type { CreateInput } from '../resources/define';
import { createRecord } from './records';
import { assertLivePatient } from './references';
import type { WriteContext } from './write-context';

/** A timeline entry on a live patient, marked as coming from the API. */
export function createPatientLog(w: WriteContext, input: CreateInput<typeof patientLogs>) {
  return createRecord(w, patientLogs, input, {
    check: (tx) => assertLivePatient(tx, w.account.id, input.patient_id),
    defaults: { source: 'api', created_by: w.actor.actor_name },
  });
}
