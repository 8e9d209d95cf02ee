/** Create, update and delete procedures for a resource: REST meta and schemas from its declaration. */
import { z } from 'zod';
import type { Ctx } from '../context';
import { createSchema, updateSchema, type AnyResource, type CreateInput, type UpdateInput } from '../resources/define';
import { idParam, oneOutput } from '../resources/queries';
import { documentOutput, parsedBy, writeProcedure } from '../trpc';
import { withArticle } from '../values/words';

/** Handlers get the input typed by the declaration's write schema; they answer the record written. */
export function createProcedure<R extends AnyResource>(
  resource: R,
  handler: (ctx: Ctx, input: CreateInput<R>) => Promise<object>,
) {
  return documentOutput(
    writeProcedure
      .meta({
        openapi: {
          method: 'POST',
          path: `/${resource.name}`,
          tags: [resource.name],
          summary: `Create ${withArticle(resource.singular)}`,
          successDescription: 'Created',
        },
      })
      .input(resource.createInput)
      .mutation(async ({ ctx, input }) => ({ data: await handler(ctx, parsedBy(createSchema(resource), input)) })),
    oneOutput(resource),
  );
}

export function updateProcedure<R extends AnyResource>(
  resource: R,
  handler: (ctx: Ctx, id: number, input: UpdateInput<R>) => Promise<object>,
) {
  return documentOutput(
    writeProcedure
      .meta({
        openapi: {
          method: 'PATCH',
          path: `/${resource.name}/{id}`,
          tags: [resource.name],
          summary: `Update ${withArticle(resource.singular)} (partial)`,
        },
      })
      .input(resource.updateInput.extend({ id: idParam }))
      .mutation(async ({ ctx, input: { id, ...rest } }) => ({
        data: await handler(ctx, parsedBy(idParam, id), parsedBy(updateSchema(resource), rest)),
      })),
    oneOutput(resource),
  );
}

export function deleteProcedure(resource: AnyResource, handler: (ctx: Ctx, id: number) => Promise<void>) {
  return documentOutput(
    writeProcedure
      .meta({
        openapi: {
          method: 'DELETE',
          path: `/${resource.name}/{id}`,
          tags: [resource.name],
          summary: `Delete ${withArticle(resource.singular)}${resource.deleteSemantics ? ` (${resource.deleteSemantics})` : ''}`,
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
