/** The line_items router: one line or several at once, PATCH and DELETE re-total the invoice. */
import { z } from 'zod';
import { addLineItems, deleteLine, updateLine } from '../domain/billing/lines';
import { writeContext } from '../domain/write-context';
import { lineInput, lineItems } from '../resources/line_items';
import { documentOutput, router, writeProcedure } from '../trpc';
import { readProcedures } from './read';
import { deleteProcedure, updateProcedure } from './write';

/** POST /line_items: the one-line body, or { invoice_id, lines: [...] }. */
const addLinesInput = lineItems.createInput.partial().extend({
  invoice_id: lineItems.createInput.shape.invoice_id,
  lines: z.array(lineInput).min(1).max(100).optional().describe('Several lines, added all or nothing; then no single-line attributes'),
});

export const lineItemsRouter = router({
  ...readProcedures(lineItems),
  create: documentOutput(
    writeProcedure
      .meta({ openapi: { method: 'POST', path: '/line_items', tags: ['line_items'], summary: 'Add one line, or several (lines: [...]) atomically, to an invoice', successDescription: 'Created' } })
      .input(addLinesInput)
      .mutation(async ({ ctx, input }) => ({ data: await addLineItems(writeContext(ctx), input as Parameters<typeof addLineItems>[1]) })),
    z.object({ data: z.union([lineItems.readSchema, z.array(lineItems.readSchema)]).describe('The line, or the lines when lines: [...] was sent') }),
  ),
  update: updateProcedure(lineItems, (ctx, id, input) => updateLine(writeContext(ctx), id, input)),
  delete: deleteProcedure(lineItems, (ctx, id) => deleteLine(writeContext(ctx), id)),
});
