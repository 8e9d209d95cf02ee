/**
 * Wakes the readers waiting at the end of the events feed (GET /events?wait=…) as soon as a transaction of
 * this process that announced events commits. A transaction marks itself (markAnnounced, from announce),
 * and the handle's `transaction` rings once it has committed: a rung reader queries again and finds the
 * events. Other processes' events are found by the waiters' own polling (server/list/feed.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<{ announced: boolean }>();
const waiting = new Set<() => void>();

/** Called inside a transaction that wrote events. */
export function markAnnounced(): void {
  const state = current.getStore();
  if (state) state.announced = true;
}

/** Runs a whole transaction (`run` resolves once it has committed), ringing after it if it announced events. */
export function ringing<T>(run: () => Promise<T>): Promise<T> {
  const state = { announced: false };
  return current.run(state, run).then((result) => {
    if (state.announced) for (const wake of [...waiting]) wake();
    return result;
  });
}

/** Resolves at the next commit that announced events, or after `ms`, whichever is first. */
export function nextAnnouncement(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      waiting.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    waiting.add(wake);
  });
}
