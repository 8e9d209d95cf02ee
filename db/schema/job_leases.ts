import { table, text, timestamp } from '../dialect';

/**
 * One row per periodic job (server/scheduler/scheduler.ts): who runs it now (`holder`, until `expires_at`)
 * and when it is next due, so that of all the processes on this database only one runs a job at a time
 * and a handover keeps its schedule.
 */
export const jobLeases = table('job_leases', {
  name: text().primaryKey(),
  holder: text(),
  expires_at: timestamp().notNull(),
  due_at: timestamp().notNull(),
});
