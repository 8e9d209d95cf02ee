/** List and single-read procedures, generated for any resource from its declaration. */
import type { Resource } from '../resources/define';
import { getRow, idParam, listOutput, listQuerySchema, oneOutput } from '../resources/queries';
import { listRecords, rawQuery } from '../list/engine';
import { documentOutput, procedure } from '../trpc';
import { z } from 'zod';
import { withArticle } from '../values/words';

export function readProcedures(resource: Resource) {
  const name = resource.name;
  const list = procedure
    .meta({
      openapi: {
        method: 'GET',
        path: `/${name}`,
        tags: [name],
        summary: `List ${name}`,
        description: resource.description,
      },
    })
    .input(listQuerySchema(resource))
    .query(({ ctx, input }) =>
      listRecords(
        resource,
        { db: ctx.db.db, accountId: ctx.account.id, region: ctx.account.region, url: `${ctx.baseUrl}/${name}` },
        rawQuery(input),
      ),
    );
  const get = procedure
    .meta({
      openapi: { method: 'GET', path: `/${name}/{id}`, tags: [name], summary: `Get ${withArticle(resource.singular)}` },
    })
    .input(z.strictObject({ id: idParam }))
    .query(async ({ ctx, input }) => {
      const row = await getRow(ctx.db.db, resource, ctx.account.id, input.id);
      return { data: resource.toRecord(row) };
    });
  return { list: documentOutput(list, listOutput(resource)), get: documentOutput(get, oneOutput(resource)) };
}
