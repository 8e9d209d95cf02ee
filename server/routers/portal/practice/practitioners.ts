/** The clinic's practitioners, with the team members linked to each. */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { practitioners as practitionerTable, users } from '../../../../db/schema';
import { createPractitioner, deletePractitioner, updatePractitioner } from '../../../domain/practice/practitioners';
import { recordId } from '../../../resources/fields';
import { practitioners } from '../../../resources/practitioners';
import { router } from '../../../trpc';
import { as, byId, manage, read } from './procedures';

export const practitionersRouter = router({
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
          .where(
            and(
              eq(users.account_id, ctx.account.id),
              inArray(
                users.practitioner_id,
                rows.map((r) => r.id),
              ),
            ),
          )
      : [];
    return {
      data: rows.map((r) => ({
        ...practitioners.toRecord(r),
        members: linked.filter((m) => m.practitioner_id === r.id).map(({ id, name }) => ({ id, name })),
      })),
    };
  }),
  create: manage.input(practitioners.staffCreateInput).mutation(({ ctx, input }) => createPractitioner(as(ctx), input)),
  update: manage
    .input(practitioners.staffUpdateInput.extend({ id: recordId }))
    .mutation(({ ctx, input: { id, ...input } }) => updatePractitioner(as(ctx), id, input)),
  delete: manage.input(byId).mutation(({ ctx, input }) => deletePractitioner(as(ctx), input.id)),
});
