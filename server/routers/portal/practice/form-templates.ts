/**
 * The clinic's form templates, read-only in the portal: their question lists need an editor of their
 * own (ordering, choice options) that is not built yet, so the page lists them and says so.
 */
import { asc, eq } from 'drizzle-orm';
import { formTemplates as templateTable } from '../../../../db/schema';
import { formTemplates } from '../../../resources/form_templates';
import { router } from '../../../trpc';
import { read } from './procedures';

export const formTemplatesRouter = router({
  list: read.query(async ({ ctx }) => {
    const rows = await ctx.db.db
      .select()
      .from(templateTable)
      .where(eq(templateTable.account_id, ctx.account.id))
      .orderBy(asc(templateTable.name), asc(templateTable.id));
    return { data: rows.map(formTemplates.toRecord) };
  }),
});
