import type { DbHandle } from '../../db/client';
import type { Account, CriticalSection, Ctx, PauseHook } from '../context';
import type { Actor } from '../events/record';

/** What every domain write needs: the database, the tenant and who is acting. */
export interface WriteContext {
  db: DbHandle;
  account: Account;
  actor: Actor;
  requestId?: string;
  pause?: PauseHook;
  /** The app's clock (createApp's `now`), so tests that move it see writes and events at its time. */
  now?: () => number;
}

export const writeContext = (ctx: Ctx): WriteContext => ({
  db: ctx.db,
  account: ctx.account,
  actor: { actor_type: ctx.principal.type, actor_id: ctx.principal.id, actor_name: ctx.principal.name },
  requestId: ctx.requestId,
  pause: ctx.pause,
  now: ctx.now,
});

/** The time of a write on the context's clock, as stored (ISO 8601). */
export const stamp = (w: Pick<WriteContext, 'now'>): string => new Date(w.now?.() ?? Date.now()).toISOString();

/**
 * Marks the point between a critical section's check and its write. A no-op unless a test installed a
 * pause hook (createApp's `pause` option), which holds requests there to prove that the section's lock
 * lets only one through (server/test/locks.test.ts).
 */
export const checkpoint = (w: Pick<WriteContext, 'pause'>, section: CriticalSection): Promise<void> | undefined =>
  w.pause?.(section);

/** Who and which request, as every recordWrite of this context needs them. */
export const recorded = (w: WriteContext) => ({
  accountId: w.account.id,
  actor: w.actor,
  requestId: w.requestId,
  at: stamp(w),
});
