/** The line_items router: one line or several at once, PATCH and DELETE re-total the invoice. */
import { z } from 'zod';
import { addLineItems, deleteLine, updateLine } from '../domain/billing/lines';
import { writeContext } from '../domain/write-context';
import { addLinesInput, lineItems } from '../resources/line_items';
import { documentOutput, router, writeProcedure } from '../trpc';
import { readProcedures } from './read';
import { deleteProcedure, updateProcedure } from './write';

export const lineItemsRouter = router({
  ...readProcedures(lineItems),
  create: documentOutput(
    writeProcedure
      .meta({
        openapi: {
          method: 'POST',
          path: '/line_items',
          tags: ['line_items'],
          summary: 'Add one line, or several (lines: [...]) atomically, to an invoice',
          successDescription: 'Created',
        },
      })
      .input(addLinesInput)
      .mutation(async ({ ctx, input }) => ({ data: await addLineItems(writeContext(ctx), input) })),
    z.object({
      data: z
        .union([lineItems.readSchema, z.array(lineItems.readSchema)])
        .describe('The line, or the lines when lines: [...] was sent'),
    }),
  ),
  update: updateProcedure(lineItems, (ctx, id, input) => updateLine(writeContext(ctx), id, input)),
  delete: deleteProcedure(lineItems, (ctx, id) => deleteLine(writeContext(ctx), id)),
});
