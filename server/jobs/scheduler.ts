/**
 * The one scheduler for periodic work (retention sweeps, clinic jobs): every server process runs one,
 * and a lease per job in the database (server/jobs/lease.ts) lets exactly one process run a job at a
 * time, whether the processes are WEB_CONCURRENCY workers or separate deployments on the same database.
 * The due time is kept with the lease, so a job runs at its interval whoever runs it, and a holder that
 * died mid-run is replaced once its lease expires (its job then runs again: jobs are idempotent).
 *
 * Each tick takes the due jobs that nobody holds and runs them one after another. Tests call `tick()`
 * with their own clock; `start()` ticks every `pollMs` on timers that do not hold the process open.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { DbHandle } from '../../db/client';
import { ensureLeases, releaseLease, renewLease, takeDue } from './lease';
import { observing } from '../observability/hooks';

export interface JobRun {
  /** The scheduler's clock. */
  now(): number;
  /**
   * Extends the lease (call between batches of a long run). False: the lease is lost or the scheduler
   * stops; the job returns at once, leaving what it has committed.
   */
  renew(): Promise<boolean>;
}

/** What a run reports: `again` when it stopped at its bound with work left (due again at the next tick). */
export type JobResult = void | { again?: boolean };

export interface Job {
  /** Unique across the deployment: the lease's key. */
  name: string;
  everyMs: number;
  run(run: JobRun): Promise<JobResult>;
}

export interface SchedulerOptions {
  now?: () => number;
  /** Who holds leases taken by this scheduler; unique per instance by default. */
  holder?: string;
  /** A lease not renewed for this long passes to another process. Longer than any one batch of a job. */
  leaseMs?: number;
  pollMs?: number;
  onError?: (err: unknown, job: string) => void;
}

const DEFAULT_LEASE_MS = 5 * 60_000;
const DEFAULT_POLL_MS = 30_000;

export class Scheduler {
  readonly holder: string;
  private readonly now: () => number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly onError: (err: unknown, job: string) => void;
  private readonly byName: Map<string, Job>;
  private known = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  /** Set by stop(): jobs see renew() false, and jobs not yet started are given back. */
  private closing = false;
  private running: Promise<string[]> | null = null;

  constructor(
    private readonly db: DbHandle,
    jobs: readonly Job[],
    opts: SchedulerOptions = {},
  ) {
    this.byName = new Map(jobs.map((j) => [j.name, j]));
    if (this.byName.size !== jobs.length) throw new Error('two jobs share a name');
    this.holder = opts.holder ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.now = opts.now ?? Date.now;
    this.leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    this.pollMs = opts.pollMs ?? DEFAULT_POLL_MS;
    this.onError = opts.onError ?? (() => undefined);
  }

  get jobs(): string[] {
    return [...this.byName.keys()];
  }

  /** Runs every due job whose lease this scheduler could take: the names run. Never two ticks at once. */
  tick(): Promise<string[]> {
    if (!this.running) this.running = this.round().finally(() => (this.running = null));
    return this.running;
  }

  /** Ticks at once, then every `pollMs`, until `stop()`. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** No more ticks; waits for the one running (its job sees `renew()` false at its next batch). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.tick()
        .catch((err) => this.onError(err, 'scheduler'))
        .finally(() => this.schedule(this.pollMs));
    }, ms);
    this.timer.unref();
  }

  private async round(): Promise<string[]> {
    const names = this.jobs;
    if (!this.known) {
      await ensureLeases(this.db, names, this.now());
      this.known = true;
    }
    const taken = await takeDue(this.db, this.holder, names, this.now(), this.leaseMs);
    const ran: string[] = [];
    for (const name of taken) {
      const job = this.byName.get(name)!;
      // The jobs before it may have outlasted its lease: run it only if it is still ours, renewed.
      if (!this.closing && !(await renewLease(this.db, this.holder, name, this.now(), this.leaseMs))) continue;
      // Stopping: a job taken and not started is given back still due, for another process.
      const ranIt = !this.closing;
      const again = ranIt ? await this.runOne(job) : true;
      if (ranIt) ran.push(name);
      const at = this.now();
      await releaseLease(this.db, this.holder, name, at, again ? at : at + job.everyMs).catch((err) => this.onError(err, name));
    }
    return ran;
  }

  /** One run of a job; true when it asks to run again at once. A failure is reported and the job waits its interval. */
  private async runOne(job: Job): Promise<boolean> {
    const run: JobRun = {
      now: this.now,
      renew: async () => !this.closing && renewLease(this.db, this.holder, job.name, this.now(), this.leaseMs),
    };
    try {
      const result = await (observing.any ? observing.any.job(job, run) : job.run(run));
      return !!result?.again;
    } catch (err) {
      this.onError(err, job.name);
      return false;
    }
  }
}
