import type { DbHandle } from '../../db/client';
import type { Account, Ctx } from '../context';
import type { Actor } from '../events/record';

/** What every domain write needs: the database, the tenant and who is acting. */
export interface WriteContext {
  db: DbHandle;
  account: Account;
  actor: Actor;
  requestId?: string;
}

export const writeContext = (ctx: Ctx): WriteContext => ({
  db: ctx.db,
  account: ctx.account,
  actor: { actor_type: ctx.principal.type, actor_id: ctx.principal.id, actor_name: ctx.principal.name },
  requestId: ctx.requestId,
});

/** Who and which request, as every recordWrite of this context needs them. */
export const recorded = (w: WriteContext) => ({ accountId: w.account.id, actor: w.actor, requestId: w.requestId });
