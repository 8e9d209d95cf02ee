/** Create, update and delete procedures for a resource: REST meta and schemas from its declaration. */
import { z } from 'zod';
import type { Ctx } from '../context';
import type { Resource } from '../resources/define';
import { idParam, oneOutput } from '../resources/queries';
import { documentOutput, writeProcedure } from '../trpc';

type Record_ = Record<string, unknown>;
// The declarations are generic, so inputs reach handlers as records of the declared attributes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Input = Record<string, any>;


export function createProcedure(resource: Resource, handler: (ctx: Ctx, input: Input) => Promise<Record_>) {
  return documentOutput(
    writeProcedure
      .meta({ openapi: { method: 'POST', path: `/${resource.name}`, tags: [resource.name], summary: `Create a ${resource.singular}`, successDescription: 'Created' } })
      .input(resource.createInput)
      .mutation(async ({ ctx, input }) => ({ data: await handler(ctx, input) })),
    oneOutput(resource),
  );
}

export function updateProcedure(resource: Resource, handler: (ctx: Ctx, id: number, input: Input) => Promise<Record_>) {
  return documentOutput(
    writeProcedure
      .meta({ openapi: { method: 'PATCH', path: `/${resource.name}/{id}`, tags: [resource.name], summary: `Update a ${resource.singular} (partial)` } })
      .input(resource.updateInput.extend({ id: idParam }))
      .mutation(async ({ ctx, input: { id, ...rest } }) => ({ data: await handler(ctx, id as number, rest) })),
    oneOutput(resource),
  );
}

export function deleteProcedure(resource: Resource, handler: (ctx: Ctx, id: number) => Promise<void>) {
  return documentOutput(
    writeProcedure
      .meta({
        openapi: {
          method: 'DELETE',
          path: `/${resource.name}/{id}`,
          tags: [resource.name],
          summary: `Delete a ${resource.singular}${resource.deleteSemantics ? ` (${resource.deleteSemantics})` : ''}`,
          successDescription: 'Deleted (no body)',
        },
      })
      .input(z.strictObject({ id: idParam }))
      .mutation(async ({ ctx, input }) => {
        await handler(ctx, input.id);
      }),
    z.void(),
  );
}
