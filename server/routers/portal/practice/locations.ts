/** The clinic's sites. */
import { asc, eq } from 'drizzle-orm';
import { locations as locationTable } from '../../../../db/schema';
import { createLocation, deleteLocation, updateLocation } from '../../../domain/practice/locations';
import { recordId } from '../../../resources/fields';
import { locations } from '../../../resources/locations';
import { router } from '../../../trpc';
import { as, byId, manage, read } from './procedures';

export const locationsRouter = router({
  list: read.query(async ({ ctx }) => {
    const rows = await ctx.db.db
      .select()
      .from(locationTable)
      .where(eq(locationTable.account_id, ctx.account.id))
      .orderBy(asc(locationTable.name), asc(locationTable.id));
    return { data: rows.map(locations.toRecord) };
  }),
  create: manage.input(locations.staffCreateInput).mutation(({ ctx, input }) => createLocation(as(ctx), input)),
  update: manage
    .input(locations.staffUpdateInput.extend({ id: recordId }))
    .mutation(({ ctx, input: { id, ...input } }) => updateLocation(as(ctx), id, input)),
  delete: manage.input(byId).mutation(({ ctx, input }) => deleteLocation(as(ctx), input.id)),
});
