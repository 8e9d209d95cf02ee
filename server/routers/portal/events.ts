/** The event catalogue for the portal's page: the same described list as GET /schema/events and OpenAPI's `webhooks`. */
import { EVENT_DESCRIPTIONS } from '../../events/catalogue';
import { router } from '../../trpc';
import { memberProcedure } from './base';

export const eventsRouter = router({
  // Any member may read it: it is documentation, public on the REST surface too (GET /schema/events).
  catalogue: memberProcedure.query(() => ({ data: EVENT_DESCRIPTIONS })),
});
