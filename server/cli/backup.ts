/**
 * `clinic backup --to FILE` and `clinic restore --from FILE` for the embedded SQLite database.
 *
 * Backup: SQLite's online backup API (better-sqlite3's `backup()`), all pages in one step, so the copy
 * is one consistent read snapshot of the database, committed writes only, taken while servers keep
 * serving (WAL: a reader never blocks their writes). Copied in small steps instead, a write by another
 * process restarts the copy, which under steady load never finishes. Written beside FILE, checked
 * and then renamed, so a FILE that exists is a complete backup. The copy is written 0600 in a fresh
 * private folder beside FILE (never through a name someone could plant a link at).
 *
 * Restore: refused while anything has the database open. Every SQLite connection in WAL mode holds a
 * shared lock on the file, so failing to take an exclusive one at once means a server, worker or
 * command is using it; the OS drops the locks of a process that dies, so nothing goes stale. The
 * backup must pass `PRAGMA integrity_check` and carry no migration this build does not ship (a backup
 * from a newer release is refused); an older one is migrated. The restored copy is built beside the
 * database and renamed over it; the database it replaces is kept as DATABASE.before-restore-TIME.
 *
 * PostgreSQL has its own tools (pg_dump, point-in-time recovery): both commands say so and exit 1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database, { type SqliteDatabase } from '../../db/sqlite-driver';
import { dialectOf } from '../../db/dialect';
import { FILE_MODE } from '../../db/private-files';
import { migrationsRoot, openDb, sqlitePath } from '../../db/client';
import { loadEnv } from '../env';
import { CommandError, UsageError } from './usage';

/** More pages than any database has: the whole copy in one backup step (one read snapshot). */
const ALL_PAGES = 0x7fffffff;

const PG_BACKUP = `PostgreSQL is backed up and restored with its own tools, not with clinic backup/restore:
  pg_dump --format=custom --file=clinic-$(date +%F).dump "$DATABASE_URL"      # a consistent logical copy, while serving
  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" clinic-YYYY-MM-DD.dump
or continuous archiving with point-in-time recovery (pg_basebackup plus archive_command, or your provider's backups).`;

function fileOption(args: string[], name: 'to' | 'from'): string {
  let values: { [k: string]: string | undefined };
  try {
    ({ values } = parseArgs({ args, options: { [name]: { type: 'string' } }, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
  const file = values[name];
  if (!file) throw new UsageError(`missing --${name}`);
  return path.resolve(file);
}

/** The SQLite file DATABASE_URL names; on PostgreSQL, the way it is done there instead. */
function sqliteDatabase(): string {
  const url = loadEnv().DATABASE_URL;
  if (dialectOf(url) === 'pg') throw new CommandError(PG_BACKUP, 1);
  if (sqlitePath(url) === ':memory:')
    throw new CommandError('DATABASE_URL is an in-memory database: nothing to back up or restore');
  return path.resolve(sqlitePath(url));
}

/** When each migration this build ships was generated (drizzle records it per applied migration as `created_at`). */
function shippedMigrations(): Set<number> {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsRoot, 'sqlite', 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number; tag: string }[];
  };
  return new Set(journal.entries.map((e) => e.when));
}

/** Refuses a file that is not a sound database of this app, or one with migrations newer than this build's. */
function check(conn: SqliteDatabase, what: string): { applied: number; pending: number } {
  let problems: string[];
  try {
    problems = (conn.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
  } catch (err) {
    throw new CommandError(`${what} is not a SQLite database (${(err as Error).message})`);
  }
  if (problems.join() !== 'ok')
    throw new CommandError(`${what} fails PRAGMA integrity_check: ${problems.slice(0, 3).join('; ')}`);
  const hasJournal = conn
    .prepare("select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'")
    .get();
  if (!hasJournal) throw new CommandError(`${what} is not a Clinic API database (no __drizzle_migrations table)`);
  const applied = (conn.prepare('select created_at from __drizzle_migrations').all() as { created_at: number }[]).map(
    (r) => Number(r.created_at),
  );
  const shipped = shippedMigrations();
  const unknown = applied.filter((at) => !shipped.has(at));
  if (unknown.length) {
    throw new CommandError(
      `${what} was written by a newer release: ${unknown.length} of its migrations are not in this build (newest ${new Date(Math.max(...unknown)).toISOString()}); restore it with that release or later`,
    );
  }
  return { applied: applied.length, pending: shipped.size - applied.length };
}

/** Fails at once, naming the cause, when any connection has `file` open (see the header). */
function assertUnused(file: string): void {
  if (!fs.existsSync(file)) return;
  const probe = new Database(file);
  try {
    probe.pragma('busy_timeout = 0');
    probe.pragma('locking_mode = EXCLUSIVE');
    probe.exec('BEGIN EXCLUSIVE');
    probe.exec('COMMIT');
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
      throw new CommandError(
        `${file} is in use (a server, worker or other clinic command has it open): stop them, then restore`,
      );
    }
    throw err;
  } finally {
    // The last connection to close checkpoints the WAL into the file and removes it.
    probe.close();
  }
}

/** Whether anything (a file, a folder, a symbolic link even to nothing) is at `p`. */
const occupied = (p: string) => {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

export async function backup(args: string[]): Promise<void> {
  const to = fileOption(args, 'to');
  const source = sqliteDatabase();
  if (!fs.existsSync(source)) throw new CommandError(`no database at ${source} (DATABASE_URL)`);
  if (occupied(to)) throw new CommandError(`${to} already exists: back up to a new file`);
  if (!fs.existsSync(path.dirname(to))) throw new CommandError(`${path.dirname(to)} does not exist`);
  // Built in a folder of its own, made just now and the owner's alone (mkdtemp: 0700, a new name), so
  // no link planted beside the target can redirect the write; then renamed into place (a rename
  // replaces a link at `to` rather than following it).
  const workDir = fs.mkdtempSync(path.join(path.dirname(to), '.clinic-backup-'));
  const partial = path.join(workDir, 'backup.db');
  try {
    const conn = new Database(source, { fileMustExist: true });
    try {
      conn.pragma('busy_timeout = 5000');
      await conn.backup(partial, { progress: () => ALL_PAGES });
    } finally {
      conn.close();
    }
    const copy = new Database(partial);
    let level: { applied: number };
    try {
      level = check(copy, 'the backup');
      // A single file to move around: no -wal beside it.
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    // It holds every patient and the secrets key: the owner's alone, whatever the umask.
    fs.chmodSync(partial, FILE_MODE);
    fs.renameSync(partial, to);
    const files =
      loadEnv().FILES_STORE === 'disk'
        ? ' Uploaded files are on disk (FILES_DIR), not in the database: back that folder up too.'
        : '';
    console.error(`backed up ${source} to ${to} (${fs.statSync(to).size} bytes, ${level.applied} migrations).${files}`);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

export async function restore(args: string[]): Promise<void> {
  const from = fileOption(args, 'from');
  const target = sqliteDatabase();
  if (!fs.existsSync(from)) throw new CommandError(`no backup at ${from}`);
  if (from === target) throw new CommandError('--from is the database itself');
  const backupConn = new Database(from, { readonly: true, fileMustExist: true });
  let level: { applied: number; pending: number };
  try {
    level = check(backupConn, from);
  } catch (err) {
    backupConn.close();
    throw err;
  }
  assertUnused(target);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const staging = `${target}.restoring-${process.pid}`;
  try {
    try {
      await backupConn.backup(staging, { progress: () => ALL_PAGES });
    } finally {
      backupConn.close();
    }
    // An older backup gets this build's migrations, through the same migrator as a server start.
    const staged = await openDb(staging, { migrate: true });
    await staged.close();
    assertUnused(target);
    const kept = fs.existsSync(target)
      ? `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`
      : undefined;
    if (kept) fs.renameSync(target, kept);
    // Nothing has the database open (checked just now), so its -wal was folded in and removed; an -shm
    // left behind belongs to the replaced file.
    for (const suffix of ['-wal', '-shm']) fs.rmSync(target + suffix, { force: true });
    fs.renameSync(staging, target);
    console.error(
      `restored ${from} to ${target}${level.pending ? ` and applied ${level.pending} newer migration(s)` : ''}${kept ? `; the database it replaced is kept as ${kept}` : ''}`,
    );
  } finally {
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(staging + suffix, { force: true });
  }
}
