/** The refunds router: reads and create (announced as payments.updated). */
import { createRefund } from '../domain/billing/payments';
import { writeContext } from '../domain/write-context';
import { refunds } from '../resources/refunds';
import { router } from '../trpc';
import { readProcedures } from './read';
import { createProcedure } from './write';

export const refundsRouter = router({
  ...readProcedures(refunds),
  create: createProcedure(refunds, (ctx, input) => createRefund(writeContext(ctx), input)),
});
