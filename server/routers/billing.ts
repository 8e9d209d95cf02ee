/** Routers of billing: invoices, their lines, payments, allocations and refunds. */
import { z } from 'zod';
import { addLineItems, deleteLine, updateLine } from '../domain/billing/lines';
import { createInvoice, updateInvoice, voidInvoice, type InvoiceInput } from '../domain/billing/invoices';
import { createAllocation, createPayment, createRefund, removeAllocation, voidPayment, type PaymentInput } from '../domain/billing/payments';
import { writeContext } from '../domain/write-context';
import { invoices } from '../resources/invoices';
import { lineInput, lineItems } from '../resources/line_items';
import { paymentAllocations } from '../resources/payment_allocations';
import { payments } from '../resources/payments';
import { idParam } from '../resources/queries';
import { refunds } from '../resources/refunds';
import { documentOutput, router, writeProcedure } from '../trpc';
import { readProcedures } from './read';
import { createProcedure, deleteProcedure, updateProcedure } from './write';

export const invoicesRouter = router({
  ...readProcedures(invoices),
  create: createProcedure(invoices, (ctx, input) => createInvoice(writeContext(ctx), input as InvoiceInput)),
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
          description: `${invoices.deleteSemantics}. Voiding twice is 404.`,
          successDescription: 'Voided (no body)',
        },
      })
      .input(z.strictObject({ id: idParam, void_payments: z.enum(['true', 'false']).optional().describe('Also void the payments that paid this invoice and nothing else (fully allocated to it, never refunded)') }))
      .mutation(async ({ ctx, input }) => {
        await voidInvoice(writeContext(ctx), input.id, input.void_payments === 'true');
      }),
    z.void(),
  ),
});

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

export const paymentsRouter = router({
  ...readProcedures(payments),
  create: createProcedure(payments, (ctx, input) => createPayment(writeContext(ctx), input as PaymentInput)),
  delete: deleteProcedure(payments, (ctx, id) => voidPayment(writeContext(ctx), id)),
});

export const paymentAllocationsRouter = router({
  ...readProcedures(paymentAllocations),
  create: createProcedure(paymentAllocations, (ctx, input) => createAllocation(writeContext(ctx), input as Parameters<typeof createAllocation>[1])),
  delete: deleteProcedure(paymentAllocations, (ctx, id) => removeAllocation(writeContext(ctx), id)),
});

export const refundsRouter = router({
  ...readProcedures(refunds),
  create: createProcedure(refunds, (ctx, input) => createRefund(writeContext(ctx), input as Parameters<typeof createRefund>[1])),
});

