/** The payment_allocations router: reads, create, DELETE gives the amount back to payment and invoice. */
import { createAllocation, removeAllocation } from '../domain/billing/payments';
import { writeContext } from '../domain/write-context';
import { paymentAllocations } from '../resources/payment_allocations';
import { router } from '../trpc';
import { readProcedures } from './read';
import { createProcedure, deleteProcedure } from './write';

export const paymentAllocationsRouter = router({
  ...readProcedures(paymentAllocations),
  create: createProcedure(paymentAllocations, (ctx, input) => createAllocation(writeContext(ctx), input)),
  delete: deleteProcedure(paymentAllocations, (ctx, id) => removeAllocation(writeContext(ctx), id)),
});
