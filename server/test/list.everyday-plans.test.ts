/**
 * The questions integrators ask a big clinic every day, combined filters and a range with their order,
 * are read through one index that bounds the range and yields the order: no sort step and no walk of
 * another index (EXPLAIN after fresh statistics; PostgreSQL with sorting and sequential scans
 * discouraged). A page then reads about the rows it returns, however many
 * years of appointments the clinic has.
 */
import { getTableName, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { isPg } from '../../db/dialect';
import { listRecords } from '../list/engine';
import { RESOURCES } from '../resources';
import type { Resource } from '../resources/define';
import { newClinic, useClinic } from './helpers';
import { planOf, pgSorts } from './support/plans';
import { recordingDb } from './support/recording-db';

const t = useClinic({ seed: true });

/** The clinic's own ids and the span of its appointments, read in beforeAll. */
let seen: Record<string, string> = {};

// A second clinic, so the tables never hold one clinic only (see list-order.index.test.ts).
beforeAll(async () => {
  await newClinic(t.server, { seed: true });
  // The range is every appointment the seed made: one the statistics know to be empty (a week in 2031)
  // is rightly read from the range's own index, whatever else is asked.
  const [row] = await t.server.app.db.all<Record<string, string | number>>(
    sql`select min(starts_at) as first, max(starts_at) as last, min(practitioner_id) as practitioner,
        min(resource_id) as resource, min(patient_id) as patient, min(location_id) as location
        from appointments where account_id = ${t.clinic.account.id} and deleted_at is null`,
  );
  seen = Object.fromEntries(Object.entries(row).map(([k, v]) => [k, String(v)]));
}, 60_000);

const RANGE = () => `between:${seen.first},${seen.last}`;

/** [what is asked, resource, query, the index that must serve it alone]. */
const EVERYDAY: [string, string, () => Record<string, string>, string][] = [
  [
    "a practitioner's week, in diary order",
    'appointments',
    () => ({ practitioner_id: `eq:${seen.practitioner}`, starts_at: RANGE(), sort: 'starts_at:asc' }),
    'appointments_practitioner_starts_idx',
  ],
  [
    "a practitioner's week, latest first",
    'appointments',
    () => ({ practitioner_id: `eq:${seen.practitioner}`, starts_at: RANGE(), sort: 'starts_at:desc' }),
    'appointments_practitioner_starts_idx',
  ],
  [
    "a room's week",
    'appointments',
    () => ({ resource_id: `eq:${seen.resource}`, starts_at: RANGE(), sort: 'starts_at:asc' }),
    'appointments_resource_starts_idx',
  ],
  [
    "a patient's appointments in a range",
    'appointments',
    () => ({ patient_id: `eq:${seen.patient}`, starts_at: RANGE(), sort: 'starts_at:asc' }),
    'appointments_patient_idx',
  ],
  [
    "a site's week",
    'appointments',
    () => ({ location_id: `eq:${seen.location}`, starts_at: RANGE(), sort: 'starts_at:asc' }),
    'appointments_location_idx',
  ],
];

describe("a big clinic's everyday questions are read through one index, in its order", () => {
  test.each(EVERYDAY)('%s', async (_what, name, query, index) => {
    const resource = RESOURCES[name as keyof typeof RESOURCES] as unknown as Resource;
    const table = getTableName(resource.table);
    const { db, statements } = recordingDb(t.server);
    const scope = { db, accountId: t.clinic.account.id, url: `http://${t.clinic.host}/v3/api/${name}` };
    await listRecords(resource, scope, { page_size: '100', ...query() });
    const page = statements.find((s) => s.sql.includes(`from "${table}"`) && / order by /i.test(s.sql));
    expect(page, 'the page statement').toBeDefined();
    const plan = await planOf(t.server, page!, table, { sqliteStatistics: true });
    expect(plan, plan).toContain(index);
    if (isPg) {
      expect(pgSorts(plan), plan).toBe(false);
      // The range bounds the index scan (an Index Cond on starts_at), not a filter applied row by row.
      expect(plan, plan).toMatch(/"Index Cond":"[^"]*starts_at >= [^"]*starts_at <= /);
    } else {
      expect(plan).not.toContain('USE TEMP B-TREE');
      expect(plan).toMatch(new RegExp(`USING INDEX ${index} \\([^)]*starts_at>\\? AND starts_at<\\?\\)`));
    }
  });
});
