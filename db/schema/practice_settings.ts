import { bool, int, table, timestamp, ref } from '../dialect';

/**
 * A clinic's own choices about how the practice runs (the clinic jobs read them). No row: every
 * default. Keyed by account, as every tenant table.
 */
export const practiceSettings = table('practice_settings', {
  account_id: ref().primaryKey(),
  /** Whether a booked appointment nobody arrived is marked missed by the clinic job (server/jobs/missed.ts). */
  mark_missed: bool().notNull().default(false),
  /** How many hours after it ended an unarrived appointment is marked missed. */
  mark_missed_after_hours: int().notNull().default(2),
  updated_at: timestamp().notNull(),
});
