/**
 * Fixed one-minute windows shared by every process on the database, counted one of two ways:
 * - Large budgets (the 120/min REST and MCP budgets) are counted in memory and flushed to the database
 *   every FLUSH_MS, so the hot path never waits on a write. Each flush adds this process's new hits
 *   and reads back the shared total; another process's hits are seen at most FLUSH_MS late, so a
 *   budget may be overshot by what the other processes admit in that time (docs/decisions.md).
 * - Small budgets (at most SYNC_LIMIT: unauthenticated requests, registrations), where that overshoot
 *   would double the budget, take each hit in the database at once with a conditional upsert, exact
 *   across processes. Once a window is known full, this process refuses without asking again, so a
 *   flood costs a few writes per address and window, not one per request.
 */
import { lt, sql } from 'drizzle-orm';
import { allIn, type DbHandle } from '../../db/client';
import { rateLimitBuckets } from '../../db/schema';

export const WINDOW_MS = 60_000;
const FLUSH_MS = 100;
/** Budgets up to this are counted synchronously in the shared store. */
export const SYNC_LIMIT = 20;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window has room again (for Retry-After). */
  retryAfter: number;
}

interface BucketState {
  window: number;
  shared: number;
  pending: number;
  ready: Promise<void>;
  lastHit: number;
  refreshedAt: number;
}

/** Seconds until the window after `window` opens (Retry-After), at least 1. */
const secondsLeft = (window: number, now: number) => Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));

export class RateLimiter {
  private buckets = new Map<string, BucketState>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private sweeping: Promise<void> | null = null;
  private lastCleanup = 0;
  /** Small buckets known full in this process: bucket → its window. */
  private full = new Map<string, number>();

  constructor(
    private readonly db: DbHandle,
    private readonly onError: (err: unknown) => void = () => undefined,
    /** The app's clock (tests move it: windows are per minute of this clock). */
    private readonly clock: () => number = Date.now,
  ) {}

  async take(bucket: string, limit: number, now = this.clock()): Promise<RateDecision> {
    if (limit <= SYNC_LIMIT) return this.takeNow(bucket, limit, now);
    const window = Math.floor(now / WINDOW_MS);
    let st = this.buckets.get(bucket);
    if (!st || st.window !== window) {
      st = { window, shared: 0, pending: 0, lastHit: now, refreshedAt: 0, ready: Promise.resolve() };
      this.buckets.set(bucket, st);
    }
    // Other processes' hits are read back at most every FLUSH_MS; concurrent requests share one read.
    if (now - st.refreshedAt > FLUSH_MS) {
      const state = st;
      state.refreshedAt = now;
      state.ready = this.read(bucket, window).then(
        (n) => void (state.shared = Math.max(state.shared, n)),
        (err) => this.onError(err),
      );
    }
    await st.ready;
    st.lastHit = now;
    const retryAfter = secondsLeft(window, now);
    const used = st.shared + st.pending;
    if (used >= limit) return { allowed: false, limit, remaining: 0, retryAfter };
    st.pending++;
    this.schedule();
    return { allowed: true, limit, remaining: limit - used - 1, retryAfter };
  }

  /** One hit counted in the shared store before the answer: the upsert adds it only while under the limit. */
  private async takeNow(bucket: string, limit: number, now: number): Promise<RateDecision> {
    const window = Math.floor(now / WINDOW_MS);
    const retryAfter = secondsLeft(window, now);
    const refused = { allowed: false, limit, remaining: 0, retryAfter };
    if (this.full.get(bucket) === window) return refused;
    const rows = await this.db.transaction((tx) =>
      allIn<{ count: number }>(
        tx,
        sql`insert into ${rateLimitBuckets} (bucket, window_start, count) values (${bucket}, ${window}, 1)
          on conflict (bucket, window_start) do update set count = ${rateLimitBuckets}.count + 1
          where ${rateLimitBuckets}.count < ${limit}
          returning count`,
      ),
    );
    this.sweeping = this.sweep(now).catch(this.onError);
    const count = rows.length ? Number(rows[0].count) : limit;
    if (count >= limit) {
      if (this.full.size > 10_000) this.full.clear();
      this.full.set(bucket, window);
    }
    return rows.length ? { allowed: true, limit, remaining: limit - count, retryAfter } : refused;
  }

  private async read(bucket: string, window: number): Promise<number> {
    const rows = await this.db.all<{ count: number }>(
      sql`select ${rateLimitBuckets.count} as count from ${rateLimitBuckets} where ${rateLimitBuckets.bucket} = ${bucket} and ${rateLimitBuckets.window_start} = ${window}`,
    );
    return Number(rows[0]?.count ?? 0);
  }

  private schedule() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flushing = this.flush().catch(this.onError);
    }, FLUSH_MS);
    this.timer.unref();
  }

  /** Adds pending hits to the shared counters and refreshes totals of recently used buckets. */
  async flush(): Promise<void> {
    const now = this.clock();
    const window = Math.floor(now / WINDOW_MS);
    for (const [bucket, st] of this.buckets) {
      if (st.window < window) {
        this.buckets.delete(bucket);
        if (st.pending === 0) continue;
      }
      if (st.pending === 0) continue;
      const n = st.pending;
      const rows = await this.db.transaction((tx) =>
        allIn<{ count: number }>(
          tx,
          sql`insert into ${rateLimitBuckets} (bucket, window_start, count) values (${bucket}, ${st.window}, ${n})
            on conflict (bucket, window_start) do update set count = ${rateLimitBuckets}.count + excluded.count
            returning count`,
        ),
      );
      st.pending -= n;
      st.shared = Number(rows[0]?.count ?? st.shared + n);
      st.refreshedAt = now;
    }
    await this.sweep(now);
    if (this.buckets.size && [...this.buckets.values()].some((s) => s.pending > 0)) this.schedule();
  }

  /**
   * Deletes windows that ended, at most once a minute. Ended by the earlier of this clock and the wall's:
   * a process whose clock runs ahead (a test's moved clock, a server with a fast clock) must not delete
   * the windows every other process is still counting in, which would hand their budgets out again.
   */
  private async sweep(now: number): Promise<void> {
    if (now - this.lastCleanup <= WINDOW_MS) return;
    this.lastCleanup = now;
    const window = Math.floor(Math.min(now, Date.now()) / WINDOW_MS);
    await this.db.transaction((tx) => tx.delete(rateLimitBuckets).where(lt(rateLimitBuckets.window_start, window - 1)));
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flushing;
    await this.sweeping;
    await this.flush().catch(this.onError);
  }
}
