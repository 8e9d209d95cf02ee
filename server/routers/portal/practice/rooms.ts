/** Rooms and equipment (the API's `resources`): what an appointment may occupy, per location. */
import { asc, eq } from 'drizzle-orm';
import { resources as resourceTable } from '../../../../db/schema';
import { createRoom, deleteRoom, updateRoom } from '../../../domain/practice/rooms';
import { recordId } from '../../../resources/fields';
import { resources } from '../../../resources/resources';
import { router } from '../../../trpc';
import { as, byId, manage, read } from './procedures';

export const roomsRouter = router({
  list: read.query(async ({ ctx }) => {
    const rows = await ctx.db.db
      .select()
      .from(resourceTable)
      .where(eq(resourceTable.account_id, ctx.account.id))
      .orderBy(asc(resourceTable.sort_order), asc(resourceTable.name), asc(resourceTable.id));
    return { data: rows.map(resources.toRecord) };
  }),
  create: manage.input(resources.staffCreateInput).mutation(({ ctx, input }) => createRoom(as(ctx), input)),
  update: manage
    .input(resources.staffUpdateInput.extend({ id: recordId }))
    .mutation(({ ctx, input: { id, ...input } }) => updateRoom(as(ctx), id, input)),
  delete: manage.input(byId).mutation(({ ctx, input }) => deleteRoom(as(ctx), input.id)),
});
