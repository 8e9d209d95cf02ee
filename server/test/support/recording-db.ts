/**
 * A drizzle handle over a test server's own connection that records every statement it runs, for tests
 * that look at the SQL the list engine sends (PostgreSQL list pages go to the pool directly, in array
 * mode: recorded at the pool with their query config; SQLite's through drizzle's logger).
 */
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import type { Logger } from 'drizzle-orm';
import type pg from 'pg';
import type { Db } from '../../../db/client';
import { isPg } from '../../../db/dialect';
import * as schema from '../../../db/schema';
import type { TestServer } from '../helpers';

export interface Captured {
  sql: string;
  params: unknown[];
  /** The prepared statement's name on PostgreSQL ('' or none: unnamed, planned at each execution). */
  name?: string;
}

export function recordingDb(server: TestServer): { db: Db; statements: Captured[] } {
  const statements: Captured[] = [];
  const handle = server.app.db as unknown as { pool?: pg.Pool; db: { $client: unknown } };
  if (isPg) {
    const recording = new Proxy(handle.pool!, {
      get(target, prop) {
        if (prop === 'query') {
          return (config: string | { text: string; name?: string }, params: unknown[]) => {
            const text = typeof config === 'string' ? config : config.text;
            statements.push({
              sql: text,
              params: params ?? [],
              name: typeof config === 'string' ? undefined : config.name,
            });
            return (target.query as (c: unknown, p: unknown) => unknown)(config, params);
          };
        }
        const value = Reflect.get(target, prop) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return { db: drizzlePg(recording, { schema }) as unknown as Db, statements };
  }
  const logger: Logger = { logQuery: (q, params) => void statements.push({ sql: q, params }) };
  return { db: drizzleSqlite(handle.db.$client as never, { schema, logger }) as unknown as Db, statements };
}
