/**
 * `contains` on names is a case-insensitive substring match for every letter, not only ASCII, and takes
 * apostrophes as written (`o'n` finds O'Neill), on both databases: SQLite through its trigram table,
 * PostgreSQL through ILIKE and pg_trgm in a database whose character type is UTF-8. A database made with
 * LC_CTYPE C lowercases only ASCII: the server warns about it at start-up (db/character-type.ts).
 */
import { describe, expect, it } from 'vitest';
import { asciiOnlyCase } from '../../db/character-type';
import { sql } from 'drizzle-orm';
import { allIn, openDb } from '../../db/client';
import { patients } from '../../db/schema';
import { swapApostrophes, swappedText } from '../list/apostrophes';
import { isPg } from '../../db/dialect';
import { useClinic } from './helpers';
import { ownDatabaseUrl } from './support/own-database';

const t = useClinic();

// Straight, curly and modifier-letter apostrophes stay distinct: each finds its own (server/list/apostrophes.ts).
const NAMES = ['Ødegård', "O'Neill", 'O\u2019Neill', 'O\u02bcneal', 'Núñez', 'Ó Súilleabháin', 'Oneida', 'Smith'];

describe('name search', () => {
  it.each([
    ['ødeg', ['Ødegård']],
    ['ØDEGÅ', ['Ødegård']],
    ["o'n", ["O'Neill"]],
    ["O'NEI", ["O'Neill"]],
    ['o\u2019n', ['O\u2019Neill']],
    ['o\u02bcn', ['O\u02bcneal']],
    ['ÑEZ', ['Núñez']],
    ['súil', ['Ó Súilleabháin']],
    ['nez', []],
  ])('last_name=contains:%s finds %j', async (value, expected) => {
    for (const last_name of NAMES) {
      const res = await t.api.post('/patients', { body: { first_name: 'Search', last_name } });
      expect(res.status).toBe(201);
    }
    const res = await t.api.get(`/patients?first_name=eq:Search&last_name=contains:${encodeURIComponent(value)}`);
    expect(res.status).toBe(200);
    expect([...new Set(res.body.data.map((p: { last_name: string }) => p.last_name))]).toEqual(expected);
  });
});

describe.runIf(isPg)('an apostrophe in a trigram search (only on PostgreSQL)', () => {
  it('narrows the index read to the names with it, not every name with a word "o" and a word "q…"', async () => {
    const names = ["Zo'Quist", "Bo'Quay", 'Zo Quist', 'Bo Quay', 'Jo Quinn', 'Mo Quill'];
    for (const last_name of names) {
      const res = await t.api.post('/patients', { body: { first_name: 'Apostrophe', last_name } });
      expect(res.status).toBe(201);
    }
    const found = await t.api.get(`/patients?last_name=contains:${encodeURIComponent("o'q")}`);
    expect(found.body.data.map((p: { last_name: string }) => p.last_name).sort()).toEqual(["Bo'Quay", "Zo'Quist"]);
    // The index's own read (every clinic's names in it), asked on the expression the list engine filters.
    const db = t.server.app.db;
    const pattern = swapApostrophes("%o'q%");
    const [{ n: withIt }] = await db.all<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM patients WHERE last_name ILIKE ${"%o'q%"}`,
    );
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const rows = await allIn<{ 'QUERY PLAN': unknown }>(
        tx,
        sql`EXPLAIN (ANALYZE, FORMAT JSON) SELECT 1 FROM patients WHERE ${swappedText(patients.last_name)} ILIKE ${pattern}`,
      );
      return JSON.stringify(rows[0]['QUERY PLAN']);
    });
    const read =
      /"Node Type":"Bitmap Index Scan"[^}]*?"Index Name":"patients_last_name_trgm"[^}]*?"Actual Rows":(\d+)/.exec(plan);
    expect(read, plan).not.toBeNull();
    // Without the swap the index had a word "o" and a word "q…" to go on: all six names were candidates.
    expect(Number(read![1])).toBe(withIt);
  });
});

describe.runIf(isPg)('the database’s character type (only on PostgreSQL)', () => {
  it('a database that lowercases only ASCII is named for the start-up warning; the suite’s is not', async () => {
    const ascii = await openDb(await ownDatabaseUrl({ ctype: 'C' }));
    try {
      expect(await asciiOnlyCase(ascii)).toBe('C');
    } finally {
      await ascii.close();
    }
    expect(await asciiOnlyCase(t.server.app.db)).toBeNull();
  });
});
