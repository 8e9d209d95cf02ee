/**
 * Prepared drizzle queries, built once per database handle and key. Building a drizzle query costs
 * ~200 µs (measured: select * of a 21-column table), far more than running it, so hot reads and list
 * queries (one per shape) are prepared with placeholders. Only for reads outside transactions: on
 * PostgreSQL a prepared query runs on the pool, not on a transaction's connection.
 */
import { createHash } from 'node:crypto';
import type { Db } from './client';

interface Preparable<P> {
  prepare(name: string): P;
}

/** Shapes of list queries are many but bounded; past this, start over rather than grow. */
const MAX_PER_DB = 2000;
const caches = new WeakMap<Db, Map<string, unknown>>();

/**
 * `plannedEachTime`: the statement goes to PostgreSQL unnamed, so it is planned with each execution's
 * own values. A named statement switches to a generic plan after five runs, and for text searches and
 * ranges the generic plan cannot know the value is selective: it left the trigram index for a scan of
 * the clinic (a 107 ms `contains` became 742–909 ms after warm-up). drizzle's query building is still
 * done once.
 */
/**
 * Behind a transaction pooler (PgBouncer before 1.21) every statement goes unnamed: a name lives on one
 * server connection, while the driver remembers it per client connection and would skip the Parse on a
 * connection the pooler has since swapped. A property of the deployment, so of the process.
 */
let unnamed = false;
export function unnamedStatements(): void {
  unnamed = true;
}

export function prepared<P>(
  db: Db,
  key: string,
  build: () => Preparable<P>,
  opts: { plannedEachTime?: boolean } = {},
): P {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let query = cache.get(key) as P | undefined;
  if (!query) {
    if (cache.size >= MAX_PER_DB) cache.clear();
    // PostgreSQL truncates statement names to 63 bytes: name them by a digest of the key.
    const name = opts.plannedEachTime || unnamed ? '' : `q_${createHash('sha1').update(key).digest('hex')}`;
    cache.set(key, (query = build().prepare(name)));
  }
  return query;
}
