import { z } from 'zod';
import { carePlanDetail, carePlanDetailSchema } from '../domain/care_plans';
import { carePlans } from '../resources/care_plans';
import { getRow, idParam } from '../resources/queries';
import { documentOutput, procedure, router } from '../trpc';
import { readProcedures } from './read';

export const carePlansRouter = router({
  list: readProcedures(carePlans).list,
  // The single read is richer than a list row (phases, tracking, billing details).
  get: documentOutput(
    procedure
      .meta({
        openapi: {
          method: 'GET',
          path: '/care_plans/{id}',
          tags: ['care_plans'],
          summary: 'Get one care plan with schedules, tracking and billing details',
        },
      })
      .input(z.strictObject({ id: idParam }))
      .query(async ({ ctx, input }) => ({
        data: await carePlanDetail(
          ctx.db.db,
          ctx.account.id,
          await getRow(ctx.db.db, carePlans, ctx.account.id, input.id),
        ),
      })),
    z.object({ data: carePlanDetailSchema }),
  ),
});
