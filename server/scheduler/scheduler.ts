/**
 * The one scheduler for periodic work (retention sweeps, clinic jobs): every server process runs one,
 * and a lease per job in the database (server/scheduler/lease.ts) lets exactly one process run a job at a
 * time, whether the processes are WEB_CONCURRENCY workers or separate deployments on the same database.
 * The due time is kept with the lease, so a job runs at its interval whoever runs it, and a holder that
 * died mid-run is replaced once its lease expires (its job then runs again: jobs are idempotent).
 *
 * Each tick takes the due jobs that nobody holds and runs them one after another. Tests call `tick()`
 * with their own clock; `start()` ticks every `pollMs` on timers that do not hold the process open.
 *
 * A continuous job (the webhook delivery loop) is a long-lived service rather than a run: the process
 * that takes its lease starts the service and keeps the lease with a short one renewed every `renewMs`
 * (and at every tick), apart from the periodic jobs so a long sweep never delays it. When a renewal
 * finds the lease taken by another (this process stalled past it), the service is stopped; `stop()`
 * stops it (it drains) and gives the lease back at once, so another process takes over at its next
 * renewal rather than after the lease expires. A holder that dies is replaced within `continuousLeaseMs`
 * + `renewMs`.
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

/** What a continuous job runs while this process holds its lease; `stop()` resolves once it has drained. */
export interface Service {
  start(): void;
  stop(): Promise<void>;
}

export interface ContinuousJob {
  /** Unique across the deployment: the lease's key. */
  name: string;
  continuous: Service;
}

const isContinuous = (job: Job | ContinuousJob): job is ContinuousJob => 'continuous' in job;

export interface SchedulerOptions {
  now?: () => number;
  /** Who holds leases taken by this scheduler; unique per instance by default. */
  holder?: string;
  /** A lease not renewed for this long passes to another process. Longer than any one batch of a job. */
  leaseMs?: number;
  pollMs?: number;
  /** The lease of a continuous job: short, so a dead holder's service resumes elsewhere soon. */
  continuousLeaseMs?: number;
  /** How often a continuous job's lease is renewed, and a free one taken. Well under `continuousLeaseMs`. */
  renewMs?: number;
  onError?: (err: unknown, job: string) => void;
}

const DEFAULT_LEASE_MS = 5 * 60_000;
const DEFAULT_POLL_MS = 30_000;
const DEFAULT_CONTINUOUS_LEASE_MS = 30_000;
const DEFAULT_RENEW_MS = 10_000;

export class Scheduler {
  readonly holder: string;
  private readonly now: () => number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly onError: (err: unknown, job: string) => void;
  private readonly continuousLeaseMs: number;
  private readonly renewMs: number;
  private readonly byName: Map<string, Job>;
  private readonly continuous: Map<string, Service>;
  /** The continuous jobs whose lease this scheduler holds (their services running), and until when. */
  private readonly held = new Map<string, number>();
  private known: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private keepTimer: NodeJS.Timeout | null = null;
  private keeping: Promise<void> | null = null;
  private stopped = true;
  /** Set by stop(): jobs see renew() false, and jobs not yet started are given back. */
  private closing = false;
  private running: Promise<string[]> | null = null;

  constructor(
    private readonly db: DbHandle,
    jobs: readonly (Job | ContinuousJob)[],
    opts: SchedulerOptions = {},
  ) {
    this.byName = new Map(jobs.filter((j) => !isContinuous(j)).map((j) => [j.name, j as Job]));
    this.continuous = new Map(jobs.filter(isContinuous).map((j) => [j.name, j.continuous]));
    if (new Set(jobs.map((j) => j.name)).size !== jobs.length) throw new Error('two jobs share a name');
    this.holder = opts.holder ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.now = opts.now ?? Date.now;
    this.leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    this.pollMs = opts.pollMs ?? DEFAULT_POLL_MS;
    this.continuousLeaseMs = opts.continuousLeaseMs ?? DEFAULT_CONTINUOUS_LEASE_MS;
    this.renewMs = opts.renewMs ?? DEFAULT_RENEW_MS;
    this.onError = opts.onError ?? (() => undefined);
  }

  get jobs(): string[] {
    return [...this.byName.keys(), ...this.continuous.keys()];
  }

  /** The continuous jobs whose services run in this process now. */
  get holding(): string[] {
    return [...this.held.keys()];
  }

  /**
   * Runs every due job whose lease this scheduler could take (the names run), and keeps the continuous
   * jobs (`keep()`) meanwhile. Never two ticks at once.
   */
  tick(): Promise<string[]> {
    if (!this.running)
      this.running = Promise.all([this.round(), this.keep().catch((err) => this.onError(err, 'scheduler'))])
        .then(([ran]) => ran)
        .finally(() => (this.running = null));
    return this.running;
  }

  /**
   * Renews the leases of the continuous jobs held, stopping the service of any lost, then takes those
   * nobody holds and starts their services. Never two at once.
   */
  keep(): Promise<void> {
    if (!this.keeping) this.keeping = this.keepRound().finally(() => (this.keeping = null));
    return this.keeping;
  }

  /**
   * Ticks at once, then every `pollMs`, and keeps the continuous jobs every `renewMs`, until `stop()`.
   * `periodic: false` (JOBS off): the continuous jobs only.
   */
  start(opts: { periodic?: boolean } = {}): void {
    if (!this.stopped) return;
    this.stopped = false;
    if (opts.periodic !== false) this.schedule(0);
    if (this.continuous.size) this.scheduleKeep(0);
  }

  /**
   * No more ticks; waits for the one running (its job sees `renew()` false at its next batch), stops the
   * continuous services (each drains) and gives their leases back, due at once for another process.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.keepTimer) clearTimeout(this.keepTimer);
    this.timer = this.keepTimer = null;
    await Promise.all([this.running?.catch(() => undefined), this.keeping?.catch(() => undefined)]);
    await Promise.all(
      this.holding.map(async (name) => {
        await this.halt(name);
        const at = this.now();
        await releaseLease(this.db, this.holder, name, at, at).catch((err) => this.onError(err, name));
      }),
    );
  }

  private scheduleKeep(ms: number) {
    if (this.stopped) return;
    this.keepTimer = setTimeout(() => {
      this.keepTimer = null;
      void this.keep()
        .catch((err) => this.onError(err, 'scheduler'))
        .finally(() => this.scheduleKeep(this.renewMs));
    }, ms);
    this.keepTimer.unref();
  }

  /** The lease rows, added once (a failure is tried again at the next round). */
  private ensureKnown(): Promise<void> {
    this.known ??= ensureLeases(this.db, this.jobs, this.now()).catch((err) => {
      this.known = null;
      throw err;
    });
    return this.known;
  }

  private async keepRound(): Promise<void> {
    if (this.closing || !this.continuous.size) return;
    await this.ensureKnown();
    for (const [name, until] of [...this.held]) {
      let kept: boolean;
      try {
        kept = await renewLease(this.db, this.holder, name, this.now(), this.continuousLeaseMs);
      } catch (err) {
        // The database is unreachable: the service runs on while the lease it holds lasts.
        this.onError(err, name);
        kept = this.now() < until;
        if (kept) continue;
      }
      if (kept) this.held.set(name, this.now() + this.continuousLeaseMs);
      else await this.halt(name);
    }
    if (this.closing) return;
    const free = [...this.continuous.keys()].filter((name) => !this.held.has(name));
    const at = this.now();
    for (const name of await takeDue(this.db, this.holder, free, at, this.continuousLeaseMs)) {
      this.held.set(name, at + this.continuousLeaseMs);
      try {
        this.continuous.get(name)!.start();
      } catch (err) {
        this.onError(err, name);
      }
    }
  }

  /** Stops a continuous job's service (it drains); its lease is left as it is. */
  private async halt(name: string) {
    this.held.delete(name);
    await this.continuous
      .get(name)!
      .stop()
      .catch((err) => this.onError(err, name));
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
    const names = [...this.byName.keys()];
    await this.ensureKnown();
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
      await releaseLease(this.db, this.holder, name, at, again ? at : at + job.everyMs).catch((err) =>
        this.onError(err, name),
      );
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
