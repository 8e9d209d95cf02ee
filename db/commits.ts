/**
 * Wakes the readers waiting at the end of the events feed (GET /events?wait=…) as soon as a transaction of
 * this process that announced events commits. A transaction marks itself (markAnnounced, from announce),
 * and the handle's `transaction` rings once it has committed (committed): a rung reader queries again and finds the
 * events. Other processes' events are found by the waiters' own polling (server/list/feed.ts).
 */
const announced = new WeakSet<object>();
const waiting = new Set<() => void>();

/**
 * Called with the transaction that wrote events. The mark is on the transaction's own handle, not in an
 * AsyncLocalStorage: on Node 20 one storage in use puts a hook on every promise of the process (3% of a
 * GET /ping's time), for a flag that only writes of events set.
 */
export function markAnnounced(tx: object): void {
  announced.add(tx);
}

/** A transaction is starting on a handle that is reused (SQLite's writer): no mark of an earlier one stays. */
export function unmarked(tx: object): void {
  announced.delete(tx);
}

/** The transaction on `tx` has committed: the waiters are woken if it announced events. */
export function committed(tx: object): void {
  if (announced.delete(tx)) for (const wake of [...waiting]) wake();
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
