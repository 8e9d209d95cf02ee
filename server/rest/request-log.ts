/**
 * The request log behind the portal (spec: requests are logged per integration, kept 90 days). Rows are
 * collected in memory and inserted in batches off the request path: every FLUSH_MS, or at once when a
 * batch is full. Rows older than the retention are swept at most hourly by whichever process flushes.
 */
import { lt } from 'drizzle-orm';
import type { DbHandle } from '../../db/client';
import { requestLog } from '../../db/schema';

export const RETENTION_DAYS = 90;
const FLUSH_MS = 1000;
const MAX_BATCH = 500;
const SWEEP_EVERY_MS = 3_600_000;

export type RequestLogRow = typeof requestLog.$inferInsert;

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
    if (batch.length) await this.db.transaction((tx) => tx.insert(requestLog).values(batch));
    const now = this.now();
    if (now - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = now;
      await this.sweep();
    }
  }

  /** Removes rows past the retention. */
  async sweep(): Promise<void> {
    const cutoff = new Date(this.now() - RETENTION_DAYS * 86_400_000).toISOString();
    await this.db.transaction((tx) => tx.delete(requestLog).where(lt(requestLog.created_at, cutoff)));
  }

  close(): Promise<void> {
    return this.flush();
  }
}
