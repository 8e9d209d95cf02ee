/**
 * Files only their owner can read. Every process of the service (servers, workers, the command line)
 * creates files 0600 and folders 0700 (umask 077): the SQLite database and its -wal/-shm (SQLite gives
 * those the database file's mode), backups, uploads. A file made before this rule is tightened when it
 * is opened (`tighten`, on opening the database). Another local account can then read no patient data and no webhook secret.
 */
import fs from 'node:fs';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

/** From now on this process creates files 0600 and folders 0700. */
export function keepPrivate(): void {
  process.umask(0o077);
}

/**
 * Owner-only modes on files and folders that exist (created before the rule). Best effort: an absent
 * file, one this process does not own (EPERM) or a read-only mount is left as it is, never a failed start.
 */
export function tighten(...paths: string[]): void {
  for (const p of paths) {
    try {
      const stat = fs.statSync(p);
      const mode = stat.isDirectory() ? DIR_MODE : FILE_MODE;
      if ((stat.mode & 0o777) !== mode) fs.chmodSync(p, mode);
    } catch (err) {
      if (!['ENOENT', 'EPERM', 'EACCES', 'EROFS'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    }
  }
}
