/**
 * A DbHandle bound to a transaction already open, so that everything a caller does through it belongs
 * to that one transaction: its reads see the transaction's writes, and each transaction it opens is a
 * savepoint inside it (one that fails rolls back alone, as it would have on its own). The gateway runs
 * an idempotent POST this way, so that the write and the answer stored for its retries commit together
 * (server/rest/gateway.ts).
 */
import { sql } from 'drizzle-orm';
import type { Db, DbHandle } from './client';
import { allIn, execIn } from './client';

const exec = (tx: Db, statement: string) => execIn(tx, sql.raw(statement));

export function joinedHandle(base: Pick<DbHandle, 'dialect'>, tx: Db): DbHandle {
  let savepoints = 0;
  // One savepoint at a time, as the handles of db/client.ts run one transaction at a time per connection.
  let queue: Promise<unknown> = Promise.resolve();
  const transaction = <T>(fn: (tx: Db) => Promise<T>): Promise<T> => {
    const run = async () => {
      const name = `joined_${++savepoints}`;
      await exec(tx, `SAVEPOINT ${name}`);
      try {
        const result = await fn(tx);
        await exec(tx, `RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (err) {
        // Undo this savepoint's work only; on PostgreSQL this also clears an aborted statement.
        await exec(tx, `ROLLBACK TO SAVEPOINT ${name}`);
        await exec(tx, `RELEASE SAVEPOINT ${name}`);
        throw err;
      }
    };
    const result = queue.then(run, run);
    queue = result.catch(() => undefined);
    return result;
  };
  const unavailable = (what: string) => () =>
    Promise.reject(new Error(`${what} is not available inside a joined transaction`));
  return {
    db: tx,
    dialect: base.dialect,
    transaction,
    all: (query) => allIn(tx, query),
    appendRows: unavailable('appendRows'),
    refreshStatistics: unavailable('refreshStatistics'),
    close: unavailable('close'),
  };
}
