/**
 * On PostgreSQL, list queries whose filters' selectivity depends on the value (text searches, ranges off
 * the order's first column) go unnamed, so each execution is planned with its own values: a named
 * statement switches to a generic plan after five runs, which leaves the trigram index for a scan of the
 * clinic. Other list shapes stay named prepared statements (planned once: the hot path), a range read in
 * its own order among them (its index serves it whatever the values).
 */
import { describe, expect, test } from 'vitest';
import { isPg } from '../../db/dialect';
import { listRecords } from '../list/engine';
import { RESOURCES } from '../resources';
import { useClinic } from './helpers';
import { recordingDb } from './support/recording-db';

const t = useClinic({ seed: true });

const pooled = process.env.DATABASE_POOLER === 'transaction';

describe.runIf(isPg)('custom plans for value-dependent filters (only on PostgreSQL)', () => {
  const pageOf = async (query: Record<string, string>) => {
    const { db, statements } = recordingDb(t.server);
    await listRecords(RESOURCES.patients, { db, accountId: t.clinic.account.id, url: 'http://x/patients' }, query);
    // The page with its count inside it, and a text search's own count when one is made (a filter that
    // scans also sizes the clinic first: server/list/scans.ts).
    return statements.filter((s) => s.sql.includes('from "patients"') && !s.sql.includes('"clinic_rows"'));
  };

  test.each<Record<string, string>>([
    { last_name: 'contains:smi' },
    { email: 'like:%example%' },
    { created_at: 'gte:2020-01-01T00:00:00Z', sort: 'last_name' },
    { dob: 'between:1950-01-01,1990-12-31', sort: 'id' },
  ])('%j: page and count are unnamed statements, planned with their values at every run', async (query) => {
    // The page's statement makes the count (server/list/total.ts cappedCount), except a text search's,
    // made after its page when the page does not tell it (a short page is its own count).
    const statements = await pageOf({ ...query, page_size: '1' });
    const counted = statements.filter((s) => !/^explain/i.test(s.sql));
    const search = 'email' in query || 'last_name' in query;
    expect(counted.length).toBe('email' in query ? 2 : 1);
    if (!search) expect(counted[0].sql, 'the page counts within its statement').toMatch(/count\(\*\)/);
    for (const s of statements) expect(s.name ?? '').toBe('');
  });

  // Behind a transaction pooler every statement goes unnamed (db/prepared.ts), tested below.
  test.runIf(!pooled)(
    'equality filters and plain pages stay named prepared statements (only on PostgreSQL without a transaction pooler)',
    async () => {
      const queries: Record<string, string>[] = [
        {},
        { last_name: 'eq:Smith' },
        { sort: 'last_name' },
        { created_at: 'gte:2020-01-01T00:00:00Z' },
        { dob: 'between:1950-01-01,1990-12-31', sort: 'dob:desc' },
      ];
      for (const query of queries) {
        const statements = await pageOf(query);
        // The page, with its count inside it.
        expect(statements.length, JSON.stringify(query)).toBe(1);
        expect(statements[0].sql).toMatch(/count\(\*\)/);
        for (const s of statements) expect(s.name).toMatch(/^q_[0-9a-f]{40}$/);
      }
    },
  );
});

test.runIf(isPg && pooled)(
  'behind a transaction pooler every statement goes unnamed (only on PostgreSQL behind PgBouncer)',
  async () => {
    const { db, statements } = recordingDb(t.server);
    await listRecords(
      RESOURCES.patients,
      { db, accountId: t.clinic.account.id, url: 'http://x/patients' },
      { last_name: 'eq:Smith' },
    );
    expect(statements.length).toBeGreaterThan(0);
    for (const s of statements) expect(s.name ?? '').toBe('');
  },
);
