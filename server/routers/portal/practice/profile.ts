/**
 * The clinic's profile (server/domain/clinic-profile.ts): name, time zone, currency and language, with
 * what a change would touch (the page says it before saving) and the lists the page chooses from. Read
 * with settings.read, changed with settings.manage; the activity log records each change.
 */
import { LOCALES } from '../../../../db/schema';
import {
  clinicProfileInput,
  clinicProfileOf,
  CURRENCIES,
  TIME_ZONES,
  updateClinicProfile,
} from '../../../domain/clinic-profile';
import { router } from '../../../trpc';
import { as, manage, read } from './procedures';

export const profileRouter = router({
  get: read.query(async ({ ctx }) => ({
    ...(await clinicProfileOf(ctx.db.db, ctx.account)),
    choices: { timezones: TIME_ZONES, currencies: CURRENCIES, locales: LOCALES },
  })),
  update: manage.input(clinicProfileInput).mutation(async ({ ctx, input }) => {
    const w = as(ctx);
    const at = new Date(w.now?.() ?? Date.now()).toISOString();
    return { data: await updateClinicProfile(ctx.db, ctx.account, w.actor, input, at) };
  }),
});
