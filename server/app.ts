/**
 * Builds the API server: database (migrated), shared secrets, and the REST gateway on a node:http
 * server. `fallback` receives every request outside /v3/api (Next's handler in server/main.ts);
 * tests run without it.
 */
import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import { openDb, type DbHandle } from '../db/client';
import { settings } from '../db/schema';
import type { PauseHook } from './context';
import type { Env } from './env';
import { LocalDiskStore, type FileStore } from './files/store';
import { setCursorSecret } from './list/cursor';
import { createLogger } from './logger';
import { API_PREFIX, createGateway, type Gateway } from './rest/gateway';
import { purgeExpired } from './rest/idempotency';

export interface App {
  server: http.Server;
  db: DbHandle;
  files: FileStore;
  gateway: Gateway;
  close(): Promise<void>;
}

type Fallback = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** The cursor-signing secret: from the environment, else generated once and shared through the database. */
async function initSecrets(db: DbHandle, env: Env) {
  if (env.CURSOR_SECRET) return setCursorSecret(env.CURSOR_SECRET);
  const candidate = randomBytes(32).toString('base64url');
  await db.transaction((tx) => tx.insert(settings).values({ key: 'cursor_secret', value: candidate }).onConflictDoNothing());
  const [row] = await db.all<{ value: string }>(sql`select value from ${settings} where key = 'cursor_secret'`);
  setCursorSecret(row.value);
}

export async function createApp(env: Env, opts: { fallback?: Fallback; validateResponses?: boolean; files?: FileStore; pause?: PauseHook } = {}): Promise<App> {
  const logger = createLogger(env.LOG_LEVEL);
  const db = await openDb(env.DATABASE_URL, { migrate: true, onIdleError: (err) => logger.warn({ err }, 'idle database connection lost; the pool replaces it') });
  await initSecrets(db, env);
  const files = opts.files ?? new LocalDiskStore(env.FILES_DIR);
  const gateway = createGateway({ db, env, logger, files, validateResponses: opts.validateResponses, pause: opts.pause });
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`)) {
      void gateway.handle(req, res);
    } else if (opts.fallback) {
      void opts.fallback(req, res);
    } else {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(JSON.stringify({ message: 'Not found', code: 'not_found' }));
    }
  });
  server.keepAliveTimeout = 65_000;
  // Stored idempotent responses are kept 24 hours; sweep the expired ones hourly.
  const sweep = setInterval(() => purgeExpired(db).catch((err) => logger.error({ err }, 'idempotency sweep failed')), 3_600_000);
  sweep.unref();
  return {
    server,
    db,
    files,
    gateway,
    async close() {
      clearInterval(sweep);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gateway.close();
      await db.close();
    },
  };
}
