/**
 * The request log behind the portal (spec: requests are logged per integration, kept 90 days). Rows are
 * collected in memory and inserted in batches off the request path: every FLUSH_MS, or at once when a
 * batch is full. Rows older than the retention are swept at most hourly by whichever process flushes.
 *
 * Why five seconds: on SQLite every committed write makes the read connection drop its page cache, and
 * rows kept longer cost the garbage collector more; measured on GET /patients/{id} (npm run bench, the
 * app with and without the log), batches of 500 (one every ~70 ms under load) cost 8–13% of throughput,
 * a batch every 5 s 0–5%.
 */
import { and, asc, inArray, lt } from 'drizzle-orm';
import type { DbHandle } from '../../db/client';
import { requestLog } from '../../db/schema';

export const RETENTION_DAYS = 90;
const FLUSH_MS = 5000;
const MAX_BATCH = 50_000;
const SWEEP_EVERY_MS = 3_600_000;
const SWEEP_CHUNK = 10_000;

/** One logged request: account_id, api_key_id, method, path, status, duration_ms, request_id, created_at. */
export type RequestLogRow = [number, number | null, string, string, number, number, string, string];

const t = requestLog;
const COLUMNS = [t.account_id, t.api_key_id, t.method, t.path, t.status, t.duration_ms, t.request_id, t.created_at];

export class RequestLog {
  private rows: RequestLogRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private lastSweep = 0;

  constructor(
    private readonly db: DbHandle,
    private readonly now: () => number,
    private readonly onError: (err: unknown) => void,
  ) {}

  private stamp = { ms: NaN, iso: '' };

  /** The current time as stored; requests in the same millisecond share one string (thousands a second). */
  timestamp(): string {
    const ms = this.now();
    if (ms !== this.stamp.ms) this.stamp = { ms, iso: new Date(ms).toISOString() };
    return this.stamp.iso;
  }

  add(row: RequestLogRow): void {
    this.rows.push(row);
    if (this.rows.length >= MAX_BATCH) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Writes what is buffered (one insert per batch) and sweeps expired rows when due. Never throws. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.rows;
    this.rows = [];
    // One flush at a time, in order: a batch never overtakes the one before it.
    this.flushing = this.flushing.then(() => this.write(batch)).catch(this.onError);
    return this.flushing;
  }

  private async write(batch: RequestLogRow[]): Promise<void> {
    if (batch.length) await this.db.appendRows(requestLog, COLUMNS, batch);
    const now = this.now();
    if (now - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = now;
      await this.sweep();
    }
  }

  /**
   * Removes rows past the retention. Ids grow with time, so expired rows are the oldest by id: each pass
   * looks at the SWEEP_CHUNK oldest rows only and deletes the expired among them, until a pass deletes
   * nothing. No index on created_at is needed (and maintained by every insert); a row stamped in the
   * future by a wrong clock is simply passed over.
   */
  async sweep(): Promise<void> {
    const cutoff = new Date(this.now() - RETENTION_DAYS * 86_400_000).toISOString();
    for (;;) {
      const oldest = this.db.db.select({ id: requestLog.id }).from(requestLog).orderBy(asc(requestLog.id)).limit(SWEEP_CHUNK);
      const removed = await this.db.transaction((tx) =>
        tx.delete(requestLog).where(and(inArray(requestLog.id, oldest), lt(requestLog.created_at, cutoff))).returning({ id: requestLog.id }),
      );
      if (removed.length === 0) return;
    }
  }

  close(): Promise<void> {
    return this.flush();
  }
}
