/** Weekly working hours and breaks of a practitioner at a location, its dated exceptions, and the free slots they give. */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { practitionerAvailabilities as hoursTable } from '../../../../db/schema';
import {
  createClosure,
  deleteClosure,
  upcomingClosures,
  copyDayHours,
  copyDayInput,
  createException,
  createOpeningHours,
  deleteException,
  deleteOpeningHours,
  updateException,
  updateOpeningHours,
  upcomingExceptions,
} from '../../../domain/practice/opening-hours';
import { findAvailability } from '../../../domain/scheduling/availability';
import { recordId } from '../../../resources/fields';
import {
  practitionerAvailabilities,
  STAFF_AVAILABILITY_TYPES,
  staffClosureInput,
  staffExceptionInput,
  staffExceptionUpdate,
} from '../../../resources/practitioner_availabilities';
import { addDays, clockFor } from '../../../values/wall-time';
import { router } from '../../../trpc';
import { as, byId, manage, read } from './procedures';

/** How many days of free slots the opening-hours page shows. */
const SLOT_DAYS = 7;

const place = z.strictObject({ practitioner_id: recordId, location_id: recordId });

/** Dated exceptions: time off (a day or some hours) and extra hours on one date, today on. */
const exceptionsRouter = router({
  list: read.input(place).query(async ({ ctx, input }) => ({
    data: await upcomingExceptions(as(ctx), input.practitioner_id, input.location_id),
  })),
  create: manage.input(staffExceptionInput).mutation(({ ctx, input }) => createException(as(ctx), input)),
  update: manage
    .input(staffExceptionUpdate.extend({ id: recordId }))
    .mutation(({ ctx, input: { id, ...input } }) => updateException(as(ctx), id, input)),
  delete: manage.input(byId).mutation(({ ctx, input }) => deleteException(as(ctx), input.id)),
});

/** Clinic-wide closures (a bank holiday): a location, or every one, closed for everyone on a date. */
const closuresRouter = router({
  list: read.query(async ({ ctx }) => ({ data: await upcomingClosures(as(ctx)) })),
  create: manage.input(staffClosureInput).mutation(({ ctx, input }) => createClosure(as(ctx), input)),
  delete: manage.input(byId).mutation(({ ctx, input }) => deleteClosure(as(ctx), input.id)),
});

export const hoursRouter = router({
  exceptions: exceptionsRouter,
  closures: closuresRouter,
  list: read.input(place).query(async ({ ctx, input }) => {
    const h = hoursTable;
    const rows = await ctx.db.db
      .select()
      .from(h)
      .where(
        and(
          eq(h.account_id, ctx.account.id),
          eq(h.practitioner_id, input.practitioner_id),
          eq(h.location_id, input.location_id),
          inArray(h.type, [...STAFF_AVAILABILITY_TYPES]),
        ),
      )
      .orderBy(asc(h.day), asc(h.starts_at), asc(h.id));
    // Weekly rows only: dated exceptions are not edited in the weekly grid.
    return { data: rows.filter((r) => r.day != null).map(practitionerAvailabilities.toRecord) };
  }),
  create: manage
    .input(practitionerAvailabilities.staffCreateInput)
    .mutation(({ ctx, input }) => createOpeningHours(as(ctx), input)),
  update: manage
    .input(practitionerAvailabilities.staffUpdateInput.extend({ id: recordId }))
    .mutation(({ ctx, input: { id, ...input } }) => updateOpeningHours(as(ctx), id, input)),
  delete: manage.input(byId).mutation(({ ctx, input }) => deleteOpeningHours(as(ctx), input.id)),
  /** A weekday's hours copied to other weekdays, replacing theirs, in one transaction. */
  copyDay: manage.input(copyDayInput).mutation(({ ctx, input }) => copyDayHours(as(ctx), input)),
  /** The free slots these hours give over the next days: the API's own availability search (front-desk view). */
  slots: read
    .input(z.strictObject({ practitioner_id: recordId, location_id: recordId, appointment_type_id: recordId }))
    .query(({ ctx, input }) => {
      const from = clockFor(ctx.account.timezone).today();
      return findAvailability(ctx.db.db, ctx.account, {
        ...input,
        visibility: 'all',
        from,
        to: addDays(from, SLOT_DAYS - 1),
      });
    }),
});
