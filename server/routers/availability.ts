import { findAvailability } from '../domain/scheduling/availability';
import {
  AVAILABILITY_DESCRIPTION,
  AVAILABILITY_PERMISSION,
  availabilityOutput,
  availabilityQuery,
} from '../resources/availability';
import { documentOutput, procedure, router } from '../trpc';

export const availabilityRouter = router({
  search: documentOutput(
    procedure
      .meta({
        permission: AVAILABILITY_PERMISSION,
        openapi: {
          method: 'GET',
          path: '/availability',
          tags: ['availability'],
          summary: 'Free bookable slots',
          description: AVAILABILITY_DESCRIPTION,
        },
      })
      .input(availabilityQuery)
      .query(({ ctx, input }) => findAvailability(ctx.db.db, ctx.account, input)),
    availabilityOutput,
  ),
});
