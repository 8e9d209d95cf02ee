/** Everything the portal's pages call: one router, mounted alone at /developers/trpc. */
import { router } from '../../trpc';
import { keysRouter } from './keys';
import { activityRouter, requestsRouter } from './logs';
import { sessionRouter } from './session';
import { teamRouter } from './team';

export const portalRouter = router({
  session: sessionRouter,
  keys: keysRouter,
  activity: activityRouter,
  requests: requestsRouter,
  team: teamRouter,
});

export type PortalRouter = typeof portalRouter;
