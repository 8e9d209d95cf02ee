/** Timeline entries: records on a live patient's file, marked as coming from the API. */
import { patientLogs } from '../resources/patient_logs';
import { createRecord } from './records';
import { assertLivePatient } from './references';
import type { WriteContext } from './write-context';

// The input is validated by the resource's declaration before it gets here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Input = Record<string, any>;

/** A timeline entry on a live patient, marked as coming from the API. */
export function createPatientLog(w: WriteContext, input: Input) {
  return createRecord(w, patientLogs, input, {
    check: (tx) => assertLivePatient(tx, w.account.id, input.patient_id),
    defaults: { source: 'api', created_by: w.actor.actor_name },
  });
}
