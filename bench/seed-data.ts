/**
 * The benchmark database: 1,000,000 patients for account `bench` and 1,000 for a second account (so
 * tenancy filtering has something to filter), built once and reused. Accounts and the key go through
 * the real domain code; the patients go in through one raw prepared INSERT in big transactions, which
 * is ~100x faster than the ORM and stores the same columns.
 *
 * Import this module only after DATABASE_URL points at the bench file: db/dialect.ts picks the dialect
 * from the environment at import time.
 */
import fs from 'node:fs';
import Database, { type SqliteDatabase } from '../db/sqlite-driver';
import { openDb, type DbHandle } from '../db/client';
import { createAccount, findAccount } from '../server/domain/accounts';
import { createKey } from '../server/domain/api_keys';
import type { Account } from '../server/context';
import { firstNameOf, lastNameOf } from './names';

export const BENCH_PATIENTS = 1_000_000;
export const OTHER_PATIENTS = 1_000;
const ROWS_PER_TX = 50_000;
const SEXES = ['female', 'male', 'other'];

export interface BenchData {
  host: string;
  key: string;
  accountId: number;
  /** The bench account's patients have the contiguous ids firstId..lastId. */
  firstId: number;
  lastId: number;
}

const log = (msg: string) => console.log(`[data] ${msg}`);

function removeDb(file: string) {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
}

async function ensureAccount(db: DbHandle, subdomain: string, name: string): Promise<Account> {
  return (
    (await findAccount(db, subdomain)) ??
    createAccount(db, { subdomain, region: 'neptune', name, timezone: 'Europe/London', currency: 'GBP' })
  );
}

export async function prepareData(file: string, opts: { fresh: boolean }): Promise<BenchData> {
  if (opts.fresh) {
    log(`--fresh: removing ${file}`);
    removeDb(file);
  }
  const handle = await openDb(file, { migrate: true });
  const raw = new Database(file);
  try {
    const bench = await ensureAccount(handle, 'bench', 'Bench Clinic');
    const other = await ensureAccount(handle, 'bench-other', 'Other Clinic');
    const countOf = (accountId: number) =>
      (
        raw
          .prepare('SELECT count(*) AS n FROM patients WHERE account_id = ? AND deleted_at IS NULL')
          .get(accountId) as { n: number }
      ).n;
    const [have, haveOther] = [countOf(bench.id), countOf(other.id)];
    if (have !== BENCH_PATIENTS || haveOther !== OTHER_PATIENTS) {
      if (have !== 0 || haveOther !== 0) {
        // A half-built database (an interrupted first run): start over rather than patch it up.
        log(`found ${have} + ${haveOther} patients, expected ${BENCH_PATIENTS} + ${OTHER_PATIENTS}: rebuilding`);
        raw.close();
        await handle.close();
        return prepareData(file, { fresh: true });
      }
      bulkInsert(raw, bench.id, other.id);
    } else {
      log(`reusing ${file} (${have} + ${haveOther} patients; --fresh rebuilds)`);
    }
    // Each run logs its own requests; the last run's log would only grow the file.
    raw.prepare('DELETE FROM request_log').run();
    const range = raw
      .prepare('SELECT min(id) AS lo, max(id) AS hi FROM patients WHERE account_id = ?')
      .get(bench.id) as { lo: number; hi: number };
    if (range.hi - range.lo + 1 !== BENCH_PATIENTS)
      throw new Error(`bench patient ids are not contiguous (${range.lo}..${range.hi}); run with --fresh`);
    // Keys are shown only once, so every run issues its own.
    const actor = { actor_type: 'system' as const, actor_id: null, actor_name: 'bench' };
    const { secret } = await createKey(handle, bench, actor, {
      name: `bench ${new Date().toISOString()}`,
      access: 'read_write',
    });
    return { host: 'bench.neptune.localhost', key: secret, accountId: bench.id, firstId: range.lo, lastId: range.hi };
  } finally {
    if (raw.open) raw.close();
    await handle.close();
  }
}

function bulkInsert(raw: SqliteDatabase, benchId: number, otherId: number) {
  const started = Date.now();
  // Durability does not matter while loading a throwaway file; a big page cache keeps index pages hot.
  raw.pragma('synchronous = OFF');
  raw.pragma('cache_size = -262144');
  const fts = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'patients_fts'").get();
  const ftsTriggers = raw
    .prepare(
      "SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'patients' AND sql LIKE '%patients_fts%'",
    )
    .get() as { n: number };
  const insert =
    raw.prepare(`INSERT INTO patients (account_id, first_name, last_name, preferred_name, dob, email, sex, locale, blocked,
      communication_preferences, metadata, created_at, updated_at, deleted_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'en', 0, '{}', '{}', ?, ?, NULL)`);
  const base = Date.parse('2025-01-01T00:00:00.000Z');
  const insertRange = raw.transaction((accountId: number, from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const first = firstNameOf(i);
      const last = lastNameOf(i);
      // Creation times step ~31 s apart with a varying millisecond part: a year of sign-ups.
      const at = new Date(base + i * 31_000 + (i % 997)).toISOString();
      const dob = `${1940 + (i % 70)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
      const email = `${first}.${last}${i}@example.com`.toLowerCase();
      insert.run(accountId, first, last, i % 10 === 0 ? first.slice(0, 3) : null, dob, email, SEXES[i % 3], at, at);
    }
  });
  log(
    `inserting ${BENCH_PATIENTS} patients (${ROWS_PER_TX} per transaction${ftsTriggers.n ? ', patients_fts kept current by its triggers' : ''})`,
  );
  for (let from = 0; from < BENCH_PATIENTS; from += ROWS_PER_TX) {
    insertRange(benchId, from, Math.min(from + ROWS_PER_TX, BENCH_PATIENTS));
    if ((from + ROWS_PER_TX) % 200_000 === 0)
      log(`  ${from + ROWS_PER_TX} rows, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  insertRange(otherId, 0, OTHER_PATIENTS);
  // Without triggers feeding it, a trigram index would miss every row we just wrote.
  if (fts && ftsTriggers.n === 0) {
    log('patients_fts has no triggers: rebuilding it');
    raw.exec("INSERT INTO patients_fts(patients_fts) VALUES('rebuild')");
  }
  raw.pragma('wal_checkpoint(TRUNCATE)');
  log(`loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
