/** "Set up your clinic" (server/domain/practice/checklist.ts): each step ticked from the data; settings.read. */
import { setupChecklist } from '../../../domain/practice/checklist';
import { router } from '../../../trpc';
import { read } from './procedures';

export const checklistRouter = router({
  get: read.query(async ({ ctx }) => ({
    data: await setupChecklist(ctx.db.db, ctx.account.id, new Date(ctx.now?.() ?? Date.now()).toISOString()),
  })),
});
