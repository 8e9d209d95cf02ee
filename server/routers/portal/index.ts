/** Everything the portal's pages call: one router, mounted alone at /developers/trpc. */
import { router } from '../../trpc';
import { accountRouter } from './account';
import { connectorsRouter } from './connectors';
import { eventsRouter } from './events';
import { keysRouter } from './keys';
import { activityRouter } from './logs';
import { practiceRouter } from './practice';
import { passwordRouter } from './password';
import { requestsRouter } from './requests';
import { sessionRouter } from './session';
import { teamRouter } from './team';
import { webhooksRouter } from './webhooks';

export const portalRouter = router({
  session: sessionRouter,
  password: passwordRouter,
  account: accountRouter,
  keys: keysRouter,
  activity: activityRouter,
  requests: requestsRouter,
  team: teamRouter,
  webhooks: webhooksRouter,
  connectors: connectorsRouter,
  events: eventsRouter,
  practice: practiceRouter,
});

export type PortalRouter = typeof portalRouter;
