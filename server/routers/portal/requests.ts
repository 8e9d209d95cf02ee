/** The request log, read in the portal: a filtered page (newest first, keyset cursor) and one request's detail. */
import { z } from 'zod';
import { normalizeTimestamp } from '../../values/calendar';
import { CURSOR, getRequest, listRequests, REQUEST_METHODS, STATUS_CLASSES } from '../../domain/request_log';
import { ApiError } from '../../errors';
import { recordId } from '../../resources/fields';
import { router } from '../../trpc';
import { permitted } from './base';
import { day } from './logs';

const PAGE = 25;
const readLog = permitted('api_keys.manage');

const filters = z
  .strictObject({
    key_id: recordId.optional(),
    status_class: z.enum(STATUS_CLASSES).optional(),
    method: z.enum(REQUEST_METHODS).optional(),
    path: z.string().trim().max(200).optional(),
    // An X-Request-Id as the response header gave it (any case; surrounding spaces from a paste dropped).
    request_id: z.string().trim().toLowerCase().max(100).optional(),
    from: day.optional(),
    to: day.optional(),
    before: z
      .string()
      .regex(CURSOR, 'Not a page of this log: start from the first page')
      .refine(
        (c) => normalizeTimestamp(c.split('_')[0]) === c.split('_')[0],
        'Not a page of this log: start from the first page',
      )
      .optional(),
  })
  .refine((f) => !(f.from && f.to && f.from > f.to), {
    message: 'The end day is before the start day: pick a later one',
    path: ['to'],
  });

export const requestsRouter = router({
  list: readLog.input(filters).query(({ ctx, input }) =>
    listRequests(ctx.db.db, ctx.account.id, ctx.account.timezone, {
      keyId: input.key_id,
      statusClass: input.status_class,
      method: input.method,
      path: input.path || undefined,
      requestId: input.request_id || undefined,
      from: input.from,
      to: input.to,
      before: input.before,
      limit: PAGE,
    }),
  ),
  /** One request: a row of this clinic's log, else 404 (another clinic's id included). */
  get: readLog.input(z.strictObject({ id: recordId })).query(async ({ ctx, input }) => {
    const found = await getRequest(ctx.db.db, ctx.account.id, input.id);
    if (!found) throw new ApiError('not_found', 'No such request in this clinic’s log: it may be older than 90 days');
    return found;
  }),
});
