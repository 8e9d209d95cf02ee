/**
 * Time partitions on PostgreSQL (issue 28 §3, server/jobs/partitions.ts): events, the request log and
 * webhook attempts are partitioned by day; the keeper makes days ahead and drops a day whole once it is
 * past retention; rows no day holds land in the default partition and are left to the row sweep. On a
 * database of the test's own: dropping partitions of the suite's shared database would take other files'
 * rows with them.
 */
import { randomUUID } from 'node:crypto';
import { getTableName, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDb, type DbHandle } from '../../db/client';
import { isPg } from '../../db/dialect';
import { events } from '../../db/schema';
import { sweepEvents } from '../events/sweep';
import { DAYS_AHEAD, keepPartitions, PARTITIONED } from '../jobs/partitions';
import { setSweepPace } from '../scheduler/sweep-batches';
import { EVENTS_KEPT_DAYS } from '../resources/events';
import { ownDatabaseUrl } from './support/own-database';

const DAY = 86_400_000;
const today = Math.floor(Date.now() / DAY) * DAY;
const dayName = (table: string, day: number) =>
  `${table}_p${new Date(day).toISOString().slice(0, 10).replace(/-/g, '')}`;

describe.runIf(isPg)('day partitions (only on PostgreSQL)', () => {
  let db: DbHandle;
  beforeAll(async () => {
    db = await openDb(await ownDatabaseUrl(), { migrate: true });
    setSweepPace({ pauseFactor: 0 });
  }, 60_000);
  afterAll(async () => {
    setSweepPace(null);
    await db?.close();
  });

  const partitions = async (table: string) =>
    (
      await db.all<{ name: string }>(
        sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass(${table}) order by 1`,
      )
    ).map((r) => r.name);
  /** An event at `at`, and the partition it went to. */
  const eventAt = async (at: number) => {
    const [row] = await db.transaction((tx) =>
      tx
        .insert(events)
        .values({
          event_id: randomUUID(),
          account_id: 1,
          type: 'patients.updated',
          entity: 'patients',
          entity_id: 1,
          occurred_at: new Date(at).toISOString(),
        })
        .returning({ id: events.id, partition: sql<string>`tableoid::regclass::text` }),
    );
    return row;
  };
  const eventIds = async () => (await db.all<{ id: number }>(sql`select id from events`)).map((r) => Number(r.id));

  test('each table is partitioned by day after the migration: what came before, a default, and the days ahead', async () => {
    for (const { table } of PARTITIONED) {
      const name = getTableName(table);
      const names = await partitions(name);
      expect(names).toContain(`${name}_legacy`);
      expect(names).toContain(`${name}_default`);
      for (let d = 1; d <= DAYS_AHEAD + 1; d++) expect(names).toContain(dayName(name, today + d * DAY));
    }
    // A row goes to its day's partition.
    expect((await eventAt(today + 2 * DAY + 3_600_000)).partition).toBe(dayName('events', today + 2 * DAY));
  });

  test('the keeper drops a day once all of it is past retention, with its rows; later days and their rows stay; days ahead are made', async () => {
    const early = await eventAt(today + DAY + 60_000);
    const later = await eventAt(today + 6 * DAY + 60_000);
    const now = today + (EVENTS_KEPT_DAYS + 3) * DAY + 3_600_000;
    const kept = await keepPartitions(db, now);
    expect(kept.failed).toEqual([]);
    const names = await partitions('events');
    // Past retention at `now`: every day before the start of the day EVENTS_KEPT_DAYS ago, and what came before the migration.
    expect(kept.dropped).toEqual(
      expect.arrayContaining(['events_legacy', dayName('events', today + DAY), dayName('events', today + 2 * DAY)]),
    );
    expect(names).not.toContain('events_legacy');
    expect(names).not.toContain(dayName('events', today + DAY));
    expect(names).toContain(dayName('events', today + 6 * DAY));
    expect(names).toContain('events_default');
    for (let d = 0; d <= DAYS_AHEAD; d++)
      expect(names).toContain(dayName('events', Math.floor(now / DAY) * DAY + d * DAY));
    const ids = await eventIds();
    expect(ids).not.toContain(Number(early.id));
    expect(ids).toContain(Number(later.id));
    // Run again: nothing more to do.
    expect(await keepPartitions(db, now)).toEqual({ created: [], dropped: [], failed: [] });
  });

  test('a row of a day without a partition lands in the default one; the row sweep deletes it once its whole day is past retention', async () => {
    const far = today + 200 * DAY;
    const stray = await eventAt(far + 60_000);
    const recent = await eventAt(far + 20 * DAY);
    expect([stray.partition, recent.partition]).toEqual(['events_default', 'events_default']);
    // Retention ends within the stray row's day: it stays until the day is over (as a day partition would).
    await sweepEvents(db, far + EVENTS_KEPT_DAYS * DAY + 3_600_000);
    expect(await eventIds()).toContain(Number(stray.id));
    await sweepEvents(db, far + (EVENTS_KEPT_DAYS + 1) * DAY + 3_600_000);
    const ids = await eventIds();
    expect(ids).not.toContain(Number(stray.id));
    expect(ids).toContain(Number(recent.id));
  });
});
