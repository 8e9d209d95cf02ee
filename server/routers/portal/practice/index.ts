/**
 * Practice setup in the portal (the clinic's settings): locations, appointment types, practitioners and
 * their weekly hours, which the REST API keeps read-only. Reading needs settings.read, every write
 * settings.manage (server/test/portal.practice.permissions.test.ts holds each write procedure to it).
 * Inputs are the declarations' staff schemas (server/resources/*.ts, `staff`); the writes are
 * server/domain/practice/*. Another clinic's id is not found.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { appointmentTypes as typeTable, locations as locationTable, practitionerAvailabilities as hoursTable, practitioners as practitionerTable, users } from '../../../../db/schema';
import { createAppointmentType, deleteAppointmentType, updateAppointmentType } from '../../../domain/practice/appointment-types';
import { createLocation, deleteLocation, updateLocation } from '../../../domain/practice/locations';
import { createOpeningHours, deleteOpeningHours, updateOpeningHours } from '../../../domain/practice/opening-hours';
import { createPractitioner, deletePractitioner, updatePractitioner } from '../../../domain/practice/practitioners';
import { findAvailability } from '../../../domain/scheduling/availability';
import { addDays, clockFor } from '../../../values/wall-time';
import type { WriteContext } from '../../../domain/write-context';
import { appointmentTypes } from '../../../resources/appointment_types';
import { recordId } from '../../../resources/fields';
import { locations } from '../../../resources/locations';
import { practitionerAvailabilities, STAFF_AVAILABILITY_TYPES } from '../../../resources/practitioner_availabilities';
import { practitioners } from '../../../resources/practitioners';
import { router } from '../../../trpc';
import { permitted } from '../base';

const read = permitted('settings.read', 'settings.manage');
const manage = permitted('settings.manage');
const byId = z.strictObject({ id: recordId });

type Ctx = Parameters<Parameters<typeof manage.mutation>[0]>[0]['ctx'];
/** The member writes as themselves: the audit trail's actor, on the app's clock. */
const as = (ctx: Ctx): WriteContext => ({ db: ctx.db, account: ctx.account, actor: ctx.actor, requestId: ctx.requestId, now: ctx.now });

/** How many days of free slots the opening-hours page shows. */
const SLOT_DAYS = 7;

export const practiceRouter = router({
  locations: router({
    list: read.query(async ({ ctx }) => {
      const rows = await ctx.db.db.select().from(locationTable).where(eq(locationTable.account_id, ctx.account.id)).orderBy(asc(locationTable.name), asc(locationTable.id));
      return { data: rows.map(locations.toRecord) };
    }),
    create: manage.input(locations.staffCreateInput).mutation(({ ctx, input }) => createLocation(as(ctx), input)),
    update: manage.input(locations.staffUpdateInput.extend({ id: recordId })).mutation(({ ctx, input: { id, ...input } }) => updateLocation(as(ctx), id, input)),
    delete: manage.input(byId).mutation(({ ctx, input }) => deleteLocation(as(ctx), input.id)),
  }),
  appointmentTypes: router({
    list: read.query(async ({ ctx }) => {
      const rows = await ctx.db.db.select().from(typeTable).where(eq(typeTable.account_id, ctx.account.id)).orderBy(asc(typeTable.name), asc(typeTable.id));
      return { data: rows.map(appointmentTypes.toRecord) };
    }),
    create: manage.input(appointmentTypes.staffCreateInput).mutation(({ ctx, input }) => createAppointmentType(as(ctx), input)),
    update: manage.input(appointmentTypes.staffUpdateInput.extend({ id: recordId })).mutation(({ ctx, input: { id, ...input } }) => updateAppointmentType(as(ctx), id, input)),
    delete: manage.input(byId).mutation(({ ctx, input }) => deleteAppointmentType(as(ctx), input.id)),
  }),
  practitioners: router({
    /** With the team members linked to each (the link is made on the Team page). */
    list: read.query(async ({ ctx }) => {
      const rows = await ctx.db.db
        .select()
        .from(practitionerTable)
        .where(eq(practitionerTable.account_id, ctx.account.id))
        .orderBy(asc(practitionerTable.last_name), asc(practitionerTable.first_name), asc(practitionerTable.id));
      const linked = rows.length
        ? await ctx.db.db
            .select({ id: users.id, name: users.name, practitioner_id: users.practitioner_id })
            .from(users)
            .where(and(eq(users.account_id, ctx.account.id), inArray(users.practitioner_id, rows.map((r) => r.id))))
        : [];
      return { data: rows.map((r) => ({ ...practitioners.toRecord(r), members: linked.filter((m) => m.practitioner_id === r.id).map(({ id, name }) => ({ id, name })) })) };
    }),
    create: manage.input(practitioners.staffCreateInput).mutation(({ ctx, input }) => createPractitioner(as(ctx), input)),
    update: manage.input(practitioners.staffUpdateInput.extend({ id: recordId })).mutation(({ ctx, input: { id, ...input } }) => updatePractitioner(as(ctx), id, input)),
    delete: manage.input(byId).mutation(({ ctx, input }) => deletePractitioner(as(ctx), input.id)),
  }),
  /** Weekly working hours and breaks of a practitioner at a location. */
  hours: router({
    list: read.input(z.strictObject({ practitioner_id: recordId, location_id: recordId })).query(async ({ ctx, input }) => {
      const h = hoursTable;
      const rows = await ctx.db.db
        .select()
        .from(h)
        .where(and(eq(h.account_id, ctx.account.id), eq(h.practitioner_id, input.practitioner_id), eq(h.location_id, input.location_id), inArray(h.type, [...STAFF_AVAILABILITY_TYPES])))
        .orderBy(asc(h.day), asc(h.starts_at), asc(h.id));
      // Weekly rows only: dated exceptions are not edited in the weekly grid.
      return { data: rows.filter((r) => r.day != null).map(practitionerAvailabilities.toRecord) };
    }),
    create: manage.input(practitionerAvailabilities.staffCreateInput).mutation(({ ctx, input }) => createOpeningHours(as(ctx), input)),
    update: manage.input(practitionerAvailabilities.staffUpdateInput.extend({ id: recordId })).mutation(({ ctx, input: { id, ...input } }) => updateOpeningHours(as(ctx), id, input)),
    delete: manage.input(byId).mutation(({ ctx, input }) => deleteOpeningHours(as(ctx), input.id)),
    /** The free slots these hours give over the next days: the API's own availability search (front-desk view). */
    slots: read
      .input(z.strictObject({ practitioner_id: recordId, location_id: recordId, appointment_type_id: recordId }))
      .query(({ ctx, input }) => {
        const from = clockFor(ctx.account.timezone).today();
        return findAvailability(ctx.db.db, ctx.account, { ...input, visibility: 'all', from, to: addDays(from, SLOT_DAYS - 1) });
      }),
  }),
});
