import { gte, sql } from 'drizzle-orm';
import { z } from 'zod';
import * as t from '../../db/schema';
import { isPg } from '../../db/dialect';
import { EVENT_ENTITIES, EVENT_TYPES } from '../events/types';
import { defineResource } from './define';
import { f } from './fields';

/** How far back the feed reaches; older events are swept (server/webhooks/worker.ts). */
export const EVENTS_KEPT_DAYS = 30;

// The window is computed by the database: the statement is prepared once and runs for days.
const windowStart = isPg
  ? sql`now() - make_interval(days => ${sql.raw(String(EVENTS_KEPT_DAYS))})`
  : sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${sql.raw(`'-${EVENTS_KEPT_DAYS} days'`)})`;

const entity = f.enum(EVENT_ENTITIES, {
  filterable: true,
  column: 'entity',
  description: 'The resource the event is about (data.entity)',
});
const entityId = f.ref({
  filterable: true,
  column: 'entity_id',
  description: 'The id of the record the event is about (data.id)',
});

export const events = defineResource({
  name: 'events',
  singular: 'event',
  permission: 'feed',
  description:
    `The account's events of the last ${EVENTS_KEPT_DAYS} days, in the webhook payload's shape, oldest first: a receiver that missed ` +
    'deliveries catches up here (cursor paging). Read-only; any key may read it. ' +
    'Events are thin: fetch the record itself for its current state. Read without sort, the feed is in the order its events ' +
    'were committed: keep the last links.next (never null here) and call it later for exactly the events not yet seen; ' +
    'wait=<seconds> holds an empty last page until an event arrives. Embedded records (an appointment’s patient, a ' +
    'patient’s numbers, address and tags) follow their own resource’s events: an embed changes without an event of the ' +
    'record that embeds it. Records that belong to another (an invoice’s lines, a deleted patient’s clinical notes) are ' +
    'announced through it where they have no events of their own (GET /schema/events says which).',
  table: t.events,
  // On SQLite the window never picks the index (unary +): it drops only the hours of events the hourly
  // sweep has not reached, so the index that yields the requested order serves better.
  scope: (table) => (isPg ? gte(table.occurred_at, windowStart) : sql`+${table.occurred_at} >= ${windowStart}`),
  read: true,
  feed: { position: isPg ? t.events.position : undefined },
  fields: {
    id: f.string({
      filterable: true,
      column: 'event_id',
      description: 'Event id: the webhook-id header of its deliveries, the same on every retry',
    }),
    type: f.enum(EVENT_TYPES, {
      filterable: true,
      sortable: true,
      description: 'Event type, e.g. patients.created (GET /schema/events lists which types fire today)',
    }),
    occurred_at: f.timestamp({ filterable: true, sortable: true }),
    data: f.object(z.object({ entity: z.string(), id: z.number().int() }), {
      column: false,
      description: 'The record the event is about: its resource and id',
    }),
  },
  compute: (row) => ({ data: { entity: row.entity, id: row.entity_id } }),
  filterOnly: { 'data.entity': entity, entity, 'data.id': entityId },
});
