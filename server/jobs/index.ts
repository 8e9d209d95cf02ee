/**
 * Every periodic job of the server, run by the one scheduler (server/jobs/scheduler.ts): the retention
 * sweeps (each its own job, so one failing does not hold back the others) and the clinic jobs.
 * The webhook delivery loop is not here: it is a queue consumer polling every 500 ms whose messages
 * carry their own leases (server/webhooks/worker.ts), so several processes share the deliveries.
 */
import type { DbHandle } from '../../db/client';
import { sweepEvents } from '../events/sweep';
import { sweepOAuth } from '../oauth/sweep';
import { purgeExpired } from '../rest/idempotency';
import { sweepWebhookAttempts } from '../webhooks/worker';
import { markMissedJob } from './missed';
import { Scheduler, type Job, type SchedulerOptions } from './scheduler';

const HOURLY = 3_600_000;

export function serverJobs(db: DbHandle): Job[] {
  return [
    // Stored idempotent responses are kept 24 hours, events and webhook attempts 30 days.
    { name: 'sweep.idempotency_keys', everyMs: HOURLY, run: () => purgeExpired(db) },
    { name: 'sweep.events', everyMs: HOURLY, run: (r) => sweepEvents(db, r.now()) },
    { name: 'sweep.oauth', everyMs: HOURLY, run: async (r) => void (await sweepOAuth(db, r.now())) },
    { name: 'sweep.webhook_attempts', everyMs: HOURLY, run: (r) => sweepWebhookAttempts(db, r.now()) },
    markMissedJob(db),
  ];
}

export const createScheduler = (db: DbHandle, opts: SchedulerOptions = {}) => new Scheduler(db, serverJobs(db), opts);
