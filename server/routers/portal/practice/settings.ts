/**
 * The clinic's practice settings (server/domain/practice_settings.ts): how the practice runs, read by
 * the clinic jobs (server/jobs/missed.ts). Read with settings.read, changed with settings.manage; the
 * activity log records each change with the member.
 */
import {
  practiceSettingsOf,
  practiceSettingsInput,
  MARK_MISSED_HOURS,
  updatePracticeSettings,
} from '../../../domain/practice_settings';
import { router } from '../../../trpc';
import { as, manage, read } from './procedures';

export const settingsRouter = router({
  get: read.query(async ({ ctx }) => ({
    data: await practiceSettingsOf(ctx.db.db, ctx.account.id),
    limits: { mark_missed_after_hours: MARK_MISSED_HOURS },
  })),
  update: manage.input(practiceSettingsInput).mutation(async ({ ctx, input }) => {
    const w = as(ctx);
    const at = new Date(w.now?.() ?? Date.now()).toISOString();
    return { data: await updatePracticeSettings(ctx.db, ctx.account, w.actor, input, at) };
  }),
});
