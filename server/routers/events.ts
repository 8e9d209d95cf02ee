/** GET /events (the feed, generated from the declaration) and GET /events/{id} by event id. */
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { prepared } from '../../db/prepared';
import { notFound } from '../errors';
import { baseConditions, select } from '../list/engine';
import { events } from '../resources/events';
import type { RowType } from '../resources/define';
import { oneOutput } from '../resources/queries';
import { documentOutput, procedure, router } from '../trpc';
import { readProcedures } from './read';

const get = procedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/events/{id}',
      tags: ['events'],
      summary: 'Get one event',
      description: 'By its id (the webhook-id of its deliveries), while it is in the feed.',
    },
  })
  .input(z.strictObject({ id: z.string().max(64).describe('Event id') }))
  .query(async ({ ctx, input }) => {
    const db = ctx.db.db;
    const account = sql.placeholder('account');
    const query = prepared(db, 'events_by_event_id', () =>
      select(db, events, account)
        .from(events.table)
        .where(and(...baseConditions(events, account), eq(events.table.event_id, sql.placeholder('id')))),
    );
    // Cast: a prepared statement's rows are untyped; this one selects the resource's own row.
    const [row] = (await query.execute({ account: ctx.account.id, id: input.id })) as RowType<typeof events>[];
    if (!row) throw notFound('Event');
    return { data: events.toRecord(row) };
  });

export const eventsRouter = router({ list: readProcedures(events).list, get: documentOutput(get, oneOutput(events)) });
