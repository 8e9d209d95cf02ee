import { createRecord, updateRecord } from '../domain/records';
import { writeContext } from '../domain/write-context';
import { referralSources } from '../resources/referral_sources';
import { router } from '../trpc';
import { readProcedures } from './read';
import { createProcedure, updateProcedure } from './write';

export const referralSourcesRouter = router({
  ...readProcedures(referralSources),
  create: createProcedure(referralSources, (ctx, input) =>
    createRecord(writeContext(ctx), referralSources, input, { defaults: { active: true } }),
  ),
  update: updateProcedure(referralSources, (ctx, id, input) =>
    updateRecord(writeContext(ctx), referralSources, id, input),
  ),
});
