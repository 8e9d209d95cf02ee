/** Clinical notes: records on a live patient's file, written as the integration. */
import { invalid } from '../errors';
import { clinicalNotes } from '../resources/clinical_notes';
import type { CreateInput } from '../resources/define';
import { createRecord } from './records';
import { assertLivePatient } from './references';
import { loadPractitioner } from './scheduling/calendar';
import type { WriteContext } from './write-context';

/** A note on a live patient; `created_at`, when sent, imports a historical note and must be in the past. */
export function createClinicalNote(w: WriteContext, input: CreateInput<typeof clinicalNotes>) {
  return createRecord(w, clinicalNotes, input, {
    check: async (tx) => {
      await assertLivePatient(tx, w.account.id, input.patient_id);
      if (input.practitioner_id != null) await loadPractitioner(tx, w.account.id, input.practitioner_id);
      if (input.created_at && Date.parse(input.created_at) > Date.now())
        throw invalid('created_at', 'must be in the past (it imports a historical note)', 'invalid_input');
    },
    defaults: { created_by: w.actor.actor_name },
  });
}
