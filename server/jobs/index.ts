/**
 * Every periodic job of the server, run by the one scheduler (server/scheduler/scheduler.ts): the retention
 * sweeps (each its own job, so one failing does not hold back the others) and the clinic jobs.
 * The sweeps delete in batches and stop at a bound per run, asking to run again at the next tick
 * (server/scheduler/sweep-batches.ts). Kept for ever, so never swept: the audit log (the audit trail of
 * clinical and financial records, docs/decisions.md).
 * The webhook delivery loop is a continuous job, `webhooks.deliver`, registered where WEBHOOK_WORKER is
 * on: one process per database runs it, on a short lease (server/scheduler/scheduler.ts). Its messages keep
 * their own leases (server/webhooks/worker.ts), so extra consumers (`clinic worker`) can share them.
 */
import type { DbHandle } from '../../db/client';
import { sweepDeletedEntities, sweepEvents } from '../events/sweep';
import { sweepOAuth } from '../oauth/sweep';
import { sweepIdempotencyKeys } from '../rest/idempotency-sweep';
import { sweepRequestLog } from '../rest/request-log-sweep';
import { sweepWebhookAttempts, sweepWebhookMessages } from '../webhooks/sweep';
import { markMissedJob } from './missed';
import { compactOffsetsJob } from './offset-counts';
import { keepPartitionsJob } from './partitions';
import { refreshStatisticsJob } from './statistics';
import { Scheduler, type ContinuousJob, type Job, type SchedulerOptions, type Service } from '../scheduler/scheduler';
import { asJobResult } from '../scheduler/sweep-batches';

const HOURLY = 3_600_000;
export const WEBHOOK_DELIVERY = 'webhooks.deliver';

export interface ServerJobsOptions {
  /** The webhook delivery worker, when this process may run deliveries (WEBHOOK_WORKER on). */
  webhooks?: Service;
}

export function serverJobs(db: DbHandle, opts: ServerJobsOptions = {}): (Job | ContinuousJob)[] {
  return [
    // Stored idempotent responses are kept 24 hours; events, webhook attempts and settled webhook
    // messages 30 days; the request log 90 days; deleted_entities a year.
    // Due with the sweeps, it runs before them (by name): a day partition past retention is dropped whole
    // before a sweep would delete its rows.
    keepPartitionsJob(db),
    {
      name: 'sweep.idempotency_keys',
      everyMs: HOURLY,
      run: async (r) => asJobResult(await sweepIdempotencyKeys(db, r.now(), r)),
    },
    { name: 'sweep.events', everyMs: HOURLY, run: async (r) => asJobResult(await sweepEvents(db, r.now(), r)) },
    { name: 'sweep.oauth', everyMs: HOURLY, run: async (r) => asJobResult(await sweepOAuth(db, r.now(), r)) },
    {
      name: 'sweep.webhook_attempts',
      everyMs: HOURLY,
      run: async (r) => asJobResult(await sweepWebhookAttempts(db, r.now(), r)),
    },
    {
      name: 'sweep.webhook_messages',
      everyMs: HOURLY,
      run: async (r) => asJobResult(await sweepWebhookMessages(db, r.now(), r)),
    },
    {
      name: 'sweep.request_log',
      everyMs: HOURLY,
      run: async (r) => asJobResult(await sweepRequestLog(db, r.now(), r)),
    },
    {
      name: 'sweep.deleted_entities',
      everyMs: HOURLY,
      run: async (r) => asJobResult(await sweepDeletedEntities(db, r.now(), r)),
    },
    markMissedJob(db),
    compactOffsetsJob(db),
    refreshStatisticsJob(db),
    ...(opts.webhooks ? [{ name: WEBHOOK_DELIVERY, continuous: opts.webhooks }] : []),
  ];
}

export const createScheduler = (db: DbHandle, opts: SchedulerOptions & ServerJobsOptions = {}) =>
  new Scheduler(db, serverJobs(db, opts), opts);
