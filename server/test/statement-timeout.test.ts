/**
 * PostgreSQL cancels a statement that outlives the request it serves (statement_timeout a second below
 * REQUEST_TIMEOUT_MS): no query keeps running after its request was answered. A cancelled statement
 * reaches the client as 503 request_timeout, never a 500. Migrations run without the timeout. On SQLite a
 * write that waited SQLITE_BUSY_TIMEOUT_MS for another process's transaction is the same 503.
 */
import os from 'node:os';
import path from 'node:path';
import Database from '../../db/sqlite-driver';
import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { allIn, openDb } from '../../db/client';
import { isPg } from '../../db/dialect';
import { statementTimeoutFor } from '../env';
import { toApiError } from '../rest/errors';
import { uniqueName } from './helpers';

// PgBouncer refuses the statement_timeout startup parameter: behind it the timeout is the role's (README).
const pooled = process.env.DATABASE_POOLER === 'transaction';

describe('statement timeout', () => {
  test('a second below the request timeout, at least a second', () => {
    expect(statementTimeoutFor({ REQUEST_TIMEOUT_MS: 30_000 })).toBe(29_000);
    expect(statementTimeoutFor({ REQUEST_TIMEOUT_MS: 500 })).toBe(1000);
  });

  test.runIf(isPg && !pooled)(
    'a statement past it is cancelled and answers 503 request_timeout (only on PostgreSQL without a transaction pooler)',
    async () => {
      const db = await openDb(process.env.DATABASE_URL!, { statementTimeoutMs: 200 });
      try {
        const started = Date.now();
        const err = await db.all(sql`select pg_sleep(5)`).then(
          () => null,
          (e: unknown) => e,
        );
        expect(Date.now() - started).toBeLessThan(4000);
        const { error, internal } = toApiError(err);
        expect([error.status, error.code, internal]).toEqual([503, 'request_timeout', false]);
        // The pool's next statement runs as usual.
        expect(await db.all(sql`select 1 as one`)).toEqual([{ one: 1 }]);
      } finally {
        await db.close();
      }
    },
  );

  test.runIf(isPg && !pooled)(
    'migrations run without it (only on PostgreSQL without a transaction pooler)',
    async () => {
      const db = await openDb(process.env.DATABASE_URL!, { statementTimeoutMs: 1000, migrate: true, poolSize: 1 });
      try {
        // The one pooled connection ran the migrations and is back at the pool's timeout.
        expect(await db.all(sql`show statement_timeout`)).toEqual([{ statement_timeout: '1s' }]);
      } finally {
        await db.close();
      }
    },
  );

  test.runIf(!isPg)(
    'a write kept waiting past the busy timeout by another process answers 503 request_timeout with Retry-After (only on SQLite)',
    async () => {
      const file = path.join(os.tmpdir(), `${uniqueName('busy')}.db`);
      const db = await openDb(file, { migrate: true, busyTimeoutMs: 100 });
      const other = new Database(file);
      try {
        other.exec('BEGIN IMMEDIATE');
        const started = Date.now();
        const err = await db
          .transaction((tx) => allIn(tx, sql`select 1`))
          .then(
            () => null,
            (e: unknown) => e,
          );
        expect(Date.now() - started).toBeLessThan(2000);
        const { error, internal } = toApiError(err);
        expect([error.status, error.code, internal]).toEqual([503, 'request_timeout', false]);
        expect(error.headers).toEqual({ 'Retry-After': '1' });
        other.exec('ROLLBACK');
        // Once the other process lets go, write transactions (BEGIN IMMEDIATE) go through again.
        await db.transaction((tx) => allIn(tx, sql`select 1`));
      } finally {
        other.close();
        await db.close();
      }
    },
  );

  test.runIf(isPg && !pooled)(
    'a lock wait past lock_timeout answers 503 request_timeout with Retry-After (only on PostgreSQL without a transaction pooler)',
    async () => {
      const db = await openDb(process.env.DATABASE_URL!, { poolSize: 2 });
      try {
        let release = () => undefined as void;
        const held = new Promise<void>((r) => (release = r));
        let locked = () => undefined as void;
        const isLocked = new Promise<void>((r) => (locked = r));
        const holder = db.transaction(async (tx) => {
          await allIn(tx, sql`select pg_advisory_xact_lock(4242)`);
          locked();
          await held;
        });
        await isLocked;
        const err = await db
          .transaction(async (tx) => {
            await allIn(tx, sql`set local lock_timeout = '100ms'`);
            await allIn(tx, sql`select pg_advisory_xact_lock(4242)`);
          })
          .then(
            () => null,
            (e: unknown) => e,
          );
        release();
        await holder;
        const { error, internal } = toApiError(err);
        expect([error.status, error.code, internal]).toEqual([503, 'request_timeout', false]);
        expect(error.headers).toEqual({ 'Retry-After': '1' });
      } finally {
        await db.close();
      }
    },
  );
});
