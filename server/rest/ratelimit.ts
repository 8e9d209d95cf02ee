/**
 * Fixed one-minute windows counted in memory and flushed to the database every FLUSH_MS, so the hot
 * path never waits on a write while every process on the database shares one budget. Each flush adds
 * this process's new hits and reads back the shared total. Overshoot is bounded: another process's
 * hits are seen at most FLUSH_MS late: a bucket's shared total is re-read when it is older than that
 * (documented in docs/decisions.md).
 */
import { lt, sql } from 'drizzle-orm';
import { allIn, type DbHandle } from '../../db/client';
import { rateLimitBuckets } from '../../db/schema';

export const WINDOW_MS = 60_000;
const FLUSH_MS = 100;

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

export class RateLimiter {
  private buckets = new Map<string, BucketState>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private lastCleanup = 0;

  constructor(
    private readonly db: DbHandle,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  async take(bucket: string, limit: number, now = Date.now()): Promise<RateDecision> {
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
    const retryAfter = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
    const used = st.shared + st.pending;
    if (used >= limit) return { allowed: false, limit, remaining: 0, retryAfter };
    st.pending++;
    this.schedule();
    return { allowed: true, limit, remaining: limit - used - 1, retryAfter };
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
    const now = Date.now();
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
    if (now - this.lastCleanup > WINDOW_MS) {
      this.lastCleanup = now;
      await this.db.transaction((tx) => tx.delete(rateLimitBuckets).where(lt(rateLimitBuckets.window_start, window - 1)));
    }
    if (this.buckets.size && [...this.buckets.values()].some((s) => s.pending > 0)) this.schedule();
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flushing;
    await this.flush().catch(this.onError);
  }
}
