/** The invoices router: reads, create, PATCH (header and lines reconciled by id), DELETE voids. */
import { z } from 'zod';
import { createInvoice, updateInvoice, voidInvoice } from '../domain/billing/invoices';
import { writeContext } from '../domain/write-context';
import { invoices } from '../resources/invoices';
import { idParam } from '../resources/queries';
import { documentOutput, router, writeProcedure } from '../trpc';
import { readProcedures } from './read';
import { createProcedure, updateProcedure } from './write';

export const invoicesRouter = router({
  ...readProcedures(invoices),
  create: createProcedure(invoices, (ctx, input) => createInvoice(writeContext(ctx), input)),
  update: updateProcedure(invoices, (ctx, id, input) => updateInvoice(writeContext(ctx), id, input)),
  // DELETE takes one query parameter, so it is not the generic delete.
  delete: documentOutput(
    writeProcedure
      .meta({
        openapi: {
          method: 'DELETE',
          path: '/invoices/{id}',
          tags: ['invoices'],
          summary: 'Void an invoice',
          description: `${invoices.deleteSemantics}. Voiding an invoice already voided is 409 billing_rule.`,
          successDescription: 'Voided (no body)',
        },
      })
      .input(
        z.strictObject({
          id: idParam,
          void_payments: z
            .enum(['true', 'false'])
            .optional()
            .describe(
              'Also void the payments that paid this invoice and nothing else (fully allocated to it, never refunded)',
            ),
        }),
      )
      .mutation(async ({ ctx, input }) => {
        await voidInvoice(writeContext(ctx), input.id, input.void_payments === 'true');
      }),
    z.void(),
  ),
});
