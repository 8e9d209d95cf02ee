/** The clinical_notes router: read and created (created_at imports a historical note). */
import { createClinicalNote } from '../domain/clinical_notes';
import { writeContext } from '../domain/write-context';
import { clinicalNotes } from '../resources/clinical_notes';
import { router } from '../trpc';
import { readProcedures } from './read';
import { createProcedure } from './write';

export const clinicalNotesRouter = router({
  ...readProcedures(clinicalNotes),
  create: createProcedure(clinicalNotes, (ctx, input) => createClinicalNote(writeContext(ctx), input)),
});
