import { accountIdIndex, commitPosition, id, index, isPg, table, text, timestamp, ref } from '../dialect';

/** Transactional outbox: one row per announced change, written with the change itself. */
export const events = table(
  'events',
  {
    id: id(),
    event_id: text().notNull(),
    account_id: ref().notNull(),
    type: text().notNull(),
    entity: text().notNull(),
    entity_id: ref().notNull(),
    occurred_at: timestamp().notNull(),
    ...commitPosition(),
  },
  // Behind GET /events: its filters (type, occurred_at, entity and id) and the sweep. An event id is a
  // random UUID made by the server: found by this index, not enforced unique by it (on PostgreSQL the
  // table is partitioned by day, and a unique index would have to include occurred_at).
  (t) => [
    index('events_event_idx').on(t.account_id, t.event_id),
    ...accountIdIndex('events_account_idx', t),
    // The feed's order on PostgreSQL: by commit position, then id (on SQLite the id alone).
    ...(isPg ? [index('events_position_idx').on(t.account_id, t.position, t.id)] : []),
    index('events_type_idx').on(t.account_id, t.type, t.id),
    index('events_occurred_at_idx').on(t.account_id, t.occurred_at, t.id),
    index('events_entity_idx').on(t.account_id, t.entity, t.entity_id, t.id),
    // The retention sweep's batches, oldest first, across accounts (events_occurred_at_idx is led by the account).
    index('events_sweep_idx').on(t.occurred_at),
  ],
  { partitionedBy: 'occurred_at' },
);

/** What polling clients read to learn of deletions and voids. */
export const deletedEntities = table(
  'deleted_entities',
  {
    id: id(),
    account_id: ref().notNull(),
    entity: text().notNull(),
    entity_id: ref().notNull(),
    deleted_at: timestamp().notNull(),
  },
  (t) => [
    // The feed's default order (by id), for polling clients.
    ...accountIdIndex('deleted_entities_account_idx', t),
    index('deleted_entities_entity_idx').on(t.account_id, t.entity, t.id),
    index('deleted_entities_deleted_at_idx').on(t.account_id, t.deleted_at, t.id),
    // The retention sweep's batches, across accounts.
    index('deleted_entities_sweep_idx').on(t.deleted_at),
  ],
);
