/**
 * A clinic's practice settings (db/schema/practice_settings.ts): read with every default filled in,
 * changed with an entry in the activity log. The clinic jobs (server/jobs/*) act on them.
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbHandle } from '../../db/client';
import { practiceSettings } from '../../db/schema';
import type { Account } from '../context';
import { invalid } from '../errors';
import { recordActivity, type Actor } from '../events/record';
import { keysOf, withoutUndefined } from '../values/keys';

export type PracticeSettings = Omit<typeof practiceSettings.$inferSelect, 'account_id' | 'updated_at'>;

/** The audit trail's entity for a change of settings (one row per clinic, entity_id = the account). */
export const PRACTICE_SETTINGS_ENTITY = 'practice_settings';

export const PRACTICE_DEFAULTS: PracticeSettings = { mark_missed: false, mark_missed_after_hours: 2 };

/** Bounds of `mark_missed_after_hours`: at least an hour after the end, at most a week. */
export const MARK_MISSED_HOURS = { min: 1, max: 168 } as const;

export async function practiceSettingsOf(db: Db, accountId: number): Promise<PracticeSettings> {
  const [row] = await db.select().from(practiceSettings).where(eq(practiceSettings.account_id, accountId));
  return row
    ? { mark_missed: row.mark_missed, mark_missed_after_hours: row.mark_missed_after_hours }
    : { ...PRACTICE_DEFAULTS };
}

const hoursRule = `a whole number of hours from ${MARK_MISSED_HOURS.min} to ${MARK_MISSED_HOURS.max}`;

/** What staff (the portal's Practice settings page, `clinic practice-settings`) may change: some settings, each checked. */
export const practiceSettingsInput = z.strictObject({
  mark_missed: z.boolean().optional(),
  mark_missed_after_hours: z
    .number(`Enter ${hoursRule}`)
    .int(`Enter ${hoursRule}`)
    .min(MARK_MISSED_HOURS.min, `Enter ${hoursRule}`)
    .max(MARK_MISSED_HOURS.max, `Enter ${hoursRule}`)
    .optional(),
});

/** Changes some settings; the others keep their value. The activity log records what changed. */
export async function updatePracticeSettings(
  db: DbHandle,
  account: Account,
  actor: Actor,
  patch: Partial<PracticeSettings>,
  at = new Date().toISOString(),
): Promise<PracticeSettings> {
  const hours = patch.mark_missed_after_hours;
  if (
    hours !== undefined &&
    (!Number.isInteger(hours) || hours < MARK_MISSED_HOURS.min || hours > MARK_MISSED_HOURS.max)
  ) {
    throw invalid('mark_missed_after_hours', `must be ${hoursRule}`);
  }
  return db.transaction(async (tx) => {
    const before = await practiceSettingsOf(tx, account.id);
    const after: PracticeSettings = { ...before, ...withoutUndefined(patch) };
    await tx
      .insert(practiceSettings)
      .values({ account_id: account.id, ...after, updated_at: at })
      .onConflictDoUpdate({ target: practiceSettings.account_id, set: { ...after, updated_at: at } });
    const changes = Object.fromEntries(
      keysOf(after)
        .filter((k) => before[k] !== after[k])
        .map((k) => [k, { from: before[k], to: after[k] }]),
    );
    if (Object.keys(changes).length)
      await recordActivity(tx, account.id, actor, PRACTICE_SETTINGS_ENTITY, account.id, 'updated', changes);
    return after;
  });
}
