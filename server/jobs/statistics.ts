/**
 * The job `statistics.refresh`: keeps SQLite's planner statistics in step with the tables' sizes, hourly,
 * as SQLite advises for long-lived connections (db/client.ts, refreshStatistics). Without it a base that
 * opened small keeps planning by a handful of rows: an endpoint's page of messages read by walking every
 * clinic's messages down the rowid instead of through the endpoint's index. Bounded work (analysis_limit),
 * and nothing on PostgreSQL, whose autovacuum analyzes grown tables.
 */
import type { DbHandle } from '../../db/client';
import type { Job } from '../scheduler/scheduler';

export const REFRESH_STATISTICS_JOB = 'statistics.refresh';

export const refreshStatisticsJob = (db: DbHandle): Job => ({
  name: REFRESH_STATISTICS_JOB,
  everyMs: 3_600_000,
  run: async () => {
    await db.refreshStatistics();
  },
});
