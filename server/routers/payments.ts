/** The payments router: reads, create (with allocations), DELETE voids. */
import { createPayment, voidPayment } from '../domain/billing/payments';
import { writeContext } from '../domain/write-context';
import { payments } from '../resources/payments';
import { router } from '../trpc';
import { readProcedures } from './read';
import { createProcedure, deleteProcedure } from './write';

export const paymentsRouter = router({
  ...readProcedures(payments),
  create: createProcedure(payments, (ctx, input) => createPayment(writeContext(ctx), input)),
  delete: deleteProcedure(payments, (ctx, id) => voidPayment(writeContext(ctx), id)),
});
