/**
 * `contains` on names is a case-insensitive substring match for every letter, not only ASCII, and takes
 * apostrophes as written (`o'n` finds O'Neill), on both databases: SQLite through its trigram table,
 * PostgreSQL through ILIKE and pg_trgm in a database whose character type is UTF-8. A database made with
 * LC_CTYPE C lowercases only ASCII: the server warns about it at start-up (db/character-type.ts).
 */
import { describe, expect, it } from 'vitest';
import { asciiOnlyCase } from '../../db/character-type';
import { openDb } from '../../db/client';
import { isPg } from '../../db/dialect';
import { useClinic } from './helpers';
import { ownDatabaseUrl } from './support/own-database';

const t = useClinic();

const NAMES = ['Ødegård', "O'Neill", 'Núñez', 'Ó Súilleabháin', 'Oneida', 'Smith'];

describe('name search', () => {
  it.each([
    ['ødeg', ['Ødegård']],
    ['ØDEGÅ', ['Ødegård']],
    ["o'n", ["O'Neill"]],
    ["O'NEI", ["O'Neill"]],
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
