/**
 * Health checks for operators and orchestrators, answered on any host (a clinic's, no clinic's, another
 * region's) before the host is looked at: no key, no budget, no request-log row.
 * - `GET /healthz`, liveness: 200 `{ status: "ok" }` while the process answers.
 * - `GET /readyz`, readiness: 200 `{ status: "ok" }` when the database answers and has every migration
 *   this build ships; otherwise 503 `{ message, code: "not_ready" }` (take the instance out of rotation).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import path from 'node:path';
import { migrationsRoot, type DbHandle } from '../db/client';
import { ApiError } from './errors';
import { errorOutcome, send } from './rest/outcome';

export const LIVE_PATH = '/healthz';
export const READY_PATH = '/readyz';
/** A database that does not answer within this is as good as unreachable to the probe. */
const READY_TIMEOUT_MS = 3000;
const OK = JSON.stringify({ status: 'ok' });

export const isHealthPath = (path: string) => path === LIVE_PATH || path === READY_PATH;

/**
 * When the newest migration of this build was generated (drizzle records it per applied migration as
 * `created_at`), from the journal db/client.ts migrates from.
 */
function newestMigration(dialect: DbHandle['dialect']): number {
  const journal = path.join(migrationsRoot, dialect, 'meta', '_journal.json');
  const { entries } = JSON.parse(fs.readFileSync(journal, 'utf8')) as { entries: { when: number }[] };
  return Math.max(...entries.map((e) => e.when));
}

/** drizzle's record of applied migrations: a schema of its own on PostgreSQL. */
const appliedQuery = (dialect: DbHandle['dialect']) =>
  dialect === 'pg'
    ? sql`select max(created_at) as at from drizzle.__drizzle_migrations`
    : sql`select max(created_at) as at from __drizzle_migrations`;

export function createHealth(db: DbHandle, logger: Logger) {
  const expected = newestMigration(db.dialect);
  const applied = appliedQuery(db.dialect);

  /** Why the instance is not ready, or null. */
  async function notReady(): Promise<string | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    });
    try {
      const [row] = await Promise.race([db.all<{ at: string | number | null }>(applied), late]);
      return Number(row?.at ?? 0) >= expected
        ? null
        : 'The database lacks migrations of this build: run `npm run migrate`';
    } catch (err) {
      logger.warn({ err }, 'readiness check: database unreachable');
      return 'The database is unreachable';
    } finally {
      clearTimeout(timer);
    }
  }

  /** Answers a request for LIVE_PATH or READY_PATH. */
  async function handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const requestId = randomUUID();
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(
        res,
        errorOutcome(
          new ApiError('method_not_allowed', `${path} answers GET and HEAD`, undefined, {
            headers: { Allow: 'GET, HEAD' },
          }),
        ),
        requestId,
        null,
      );
    }
    const reason = path === READY_PATH ? await notReady() : null;
    send(res, reason ? errorOutcome(new ApiError('not_ready', reason)) : { status: 200, body: OK }, requestId, null);
  }

  return { handle };
}
