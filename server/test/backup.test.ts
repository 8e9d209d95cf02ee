/**
 * `clinic backup` / `clinic restore` on SQLite: a server process takes POST /patients from several
 * writers while the backup runs; the backup is restored into a new file and served, and every patient
 * acknowledged before the backup started is there. Restore refuses a database in use, a damaged file
 * and a backup from a newer release, and migrates an older one. On PostgreSQL the command names
 * pg_dump and point-in-time recovery instead.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from '../../db/sqlite-driver';
import { migrationsRoot, openDb } from '../../db/client';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { createAccount } from '../domain/accounts';
import { createKey } from '../domain/api_keys';
import { exited, root, spawnServer, type Spawned } from './support/spawn';

const run = promisify(execFile);
const onPg = /^postgres/.test(process.env.DATABASE_URL ?? '');
const BUDGET_MS = 240_000;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clinic-backup-'));
const live = path.join(work, 'live.db');

/** The command line as an operator runs it (`npx clinic …`), on a database of this test's own. */
async function clinic(
  databaseUrl: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/clinic.mjs', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, FILES_DIR: path.join(work, 'files') },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

let key: string;
const host = 'backup.neptune.localhost';

function send(
  s: Spawned,
  method: string,
  p: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: s.port,
        method,
        path: `/v3/api${p}`,
        agent: false,
        headers: {
          host,
          authorization: `Bearer ${key}`,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }
            : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const serve = (file: string) =>
  spawnServer('bench/app-server.ts', {
    DATABASE_URL: file,
    FILES_DIR: path.join(work, 'files'),
    WEBHOOK_WORKER: 'off',
  });
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

async function stop(s: Spawned) {
  s.child.kill('SIGTERM');
  await exited(s);
}

describe.skipIf(onPg)('clinic backup and restore (only on SQLite)', { timeout: BUDGET_MS }, () => {
  beforeAll(async () => {
    const db = await openDb(live, { migrate: true });
    const account = await createAccount(db, {
      subdomain: 'backup',
      region: 'neptune',
      name: 'Backup Physio',
      timezone: 'Europe/London',
      currency: 'GBP',
    });
    key = (
      await createKey(
        db,
        account,
        { actor_type: 'user', actor_id: null, actor_name: 'test' },
        { name: 'load', access: 'read_write' },
      )
    ).secret;
    await db.close();
  }, BUDGET_MS);

  it('a backup taken under a write load holds every write acknowledged before it started; restored and served, they all read back', async () => {
    const server = await serve(live);
    const acked: { id: number; last_name: string; at: number }[] = [];
    const failures: unknown[] = [];
    let stopped = false;
    let n = 0;
    const writer = async () => {
      while (!stopped) {
        const last_name = `Load${n++}`;
        const res = await send(server, 'POST', '/patients', { first_name: 'Backup', last_name });
        if (res.status === 201)
          acked.push({ id: (res.body.data as { id: number }).id, last_name, at: performance.now() });
        else failures.push(res);
      }
    };
    const writers = Array.from({ length: 4 }, writer);
    try {
      // Writes are flowing before the backup starts, and keep flowing while it runs.
      while (acked.length < 40 && failures.length === 0) await new Promise((r) => setImmediate(r));
      const started = performance.now();
      const before = acked.filter((a) => a.at < started);
      const backedUp = await clinic(live, 'backup', '--to', path.join(work, 'backup.db'));
      const during = acked.filter((a) => a.at >= started).length;
      stopped = true;
      await Promise.all(writers);
      expect(failures).toEqual([]);
      expect(backedUp.code, backedUp.stderr).toBe(0);
      expect(backedUp.stdout).toBe('');
      expect(backedUp.stderr).toMatch(/^backed up .*live\.db to .*backup\.db \(\d+ bytes, \d+ migrations\)/);
      expect(before.length).toBeGreaterThanOrEqual(40);
      expect(during).toBeGreaterThan(0);

      // While the server has the live database open, restoring over it is refused and changes nothing.
      const size = fs.statSync(live).size;
      const refused = await clinic(live, 'restore', '--from', path.join(work, 'backup.db'));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/live\.db is in use .*stop them, then restore/);
      expect(fs.statSync(live).size).toBe(size);
      expect(fs.readdirSync(work).filter((f) => f.includes('before-restore') || f.includes('restoring'))).toEqual([]);

      const restoredFile = path.join(work, 'restored.db');
      const restored = await clinic(restoredFile, 'restore', '--from', path.join(work, 'backup.db'));
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stderr).toMatch(/^restored .*backup\.db to .*restored\.db\n$/);

      const copy = await serve(restoredFile);
      try {
        for (const a of before) {
          const res = await send(copy, 'GET', `/patients/${a.id}`);
          expect(res.status, `patient ${a.id}`).toBe(200);
          expect(res.body.data).toMatchObject({ id: a.id, first_name: 'Backup', last_name: a.last_name });
        }
        // Nothing in the copy that was never acknowledged or still being written: every row is one of the acknowledged.
        const listed = await send(copy, 'GET', '/patients?page_size=100');
        const ids = new Set(acked.map((a) => a.id));
        expect((listed.body.data as { id: number }[]).every((p) => ids.has(p.id))).toBe(true);
        expect((listed.body.meta as { total: number }).total).toBeGreaterThanOrEqual(before.length);
        // The restored database takes writes.
        expect((await send(copy, 'POST', '/patients', { first_name: 'After', last_name: 'Restore' })).status).toBe(201);
      } finally {
        await stop(copy);
      }
    } finally {
      stopped = true;
      await Promise.all(writers);
      await stop(server);
    }
  });

  it('files are the owner’s alone: the database 0600, the backup 0600 written in a private folder; a planted link is never followed', async () => {
    const mode = (p: string) => fs.statSync(p).mode & 0o777;
    expect(mode(live)).toBe(0o600);
    // A link someone planted where a backup used to be built (FILE.partial) and one at FILE itself.
    const to = path.join(work, `private-${Date.now()}.db`);
    const victim = path.join(work, 'victim.txt');
    fs.writeFileSync(victim, 'untouched');
    fs.symlinkSync(victim, `${to}.partial`);
    const res = await clinic(live, 'backup', '--to', to);
    expect(res.code, res.stderr).toBe(0);
    expect(fs.lstatSync(to).isFile()).toBe(true);
    expect(mode(to)).toBe(0o600);
    expect(fs.readFileSync(victim, 'utf8')).toBe('untouched');
    expect(fs.readdirSync(work).filter((f) => f.startsWith('.clinic-backup-'))).toEqual([]);
    const linked = path.join(work, `linked-${Date.now()}.db`);
    fs.symlinkSync(path.join(work, 'nowhere.db'), linked);
    const refused = await clinic(live, 'backup', '--to', linked);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/already exists/);
    expect(fs.existsSync(path.join(work, 'nowhere.db'))).toBe(false);
  });

  it('restore over a stopped database keeps the one it replaced', async () => {
    const target = path.join(work, 'replaced.db');
    fs.copyFileSync(path.join(work, 'backup.db'), target);
    const before = fs.readFileSync(target);
    const restored = await clinic(target, 'restore', '--from', path.join(work, 'backup.db'));
    expect(restored.code, restored.stderr).toBe(0);
    const kept = /kept as (\S+)\n$/.exec(restored.stderr)?.[1];
    expect(kept && fs.readFileSync(kept).equals(before)).toBe(true);
  });

  it('refuses a file that is not a sound database of this app, and a backup from a newer release', async () => {
    const target = path.join(work, 'untouched.db');
    const garbage = path.join(work, 'garbage.db');
    fs.writeFileSync(garbage, 'not a database at all, just some text '.repeat(200));
    const notDb = await clinic(target, 'restore', '--from', garbage);
    expect(notDb.code).toBe(2);
    expect(notDb.stderr).toContain('is not a SQLite database');

    const newer = path.join(work, 'newer.db');
    fs.copyFileSync(path.join(work, 'backup.db'), newer);
    const conn = new Database(newer);
    conn
      .prepare('insert into __drizzle_migrations (hash, created_at) values (?, ?)')
      .run('from-the-future', Date.now() + 86_400_000);
    conn.close();
    const refused = await clinic(target, 'restore', '--from', newer);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/was written by a newer release: 1 of its migrations are not in this build/);
    expect(fs.existsSync(target)).toBe(false);

    const missing = await clinic(target, 'restore', '--from', path.join(work, 'nowhere.db'));
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(fs.existsSync(target)).toBe(false);
  });

  it('restores a backup from an older release and migrates it to this one', async () => {
    // A database migrated only up to the last-but-one migration, as an older release left it.
    const folder = path.join(work, 'old-migrations');
    fs.cpSync(path.join(migrationsRoot, 'sqlite'), folder, { recursive: true });
    const journalFile = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: unknown[] };
    const shipped = journal.entries.length;
    fs.writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, -1) }));
    const old = path.join(work, 'old.db');
    const conn = new Database(old);
    migrate(drizzle(conn), { migrationsFolder: folder });
    conn.close();

    const target = path.join(work, 'upgraded.db');
    const restored = await clinic(target, 'restore', '--from', old);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stderr).toContain('and applied 1 newer migration(s)');
    const upgraded = new Database(target, { readonly: true });
    expect(upgraded.prepare('select count(*) as n from __drizzle_migrations').get()).toEqual({ n: shipped });
    upgraded.close();
  });
});

describe('clinic backup on PostgreSQL', () => {
  it(
    'names pg_dump and point-in-time recovery, exits 1 and writes nothing',
    async () => {
      const to = path.join(work, 'pg-backup.db');
      const res = await clinic('postgres://clinic@127.0.0.1:1/clinic', 'backup', '--to', to);
      expect(res.code).toBe(1);
      expect(res.stdout).toBe('');
      expect(res.stderr).toContain('pg_dump --format=custom');
      expect(res.stderr).toContain('pg_restore');
      expect(res.stderr).toContain('point-in-time recovery');
      expect(fs.existsSync(to)).toBe(false);
    },
    BUDGET_MS,
  );
});
