/**
 * `tsx bench/explain-list.ts <database url> <subdomain> <resource> <query>`: the list engine's own statements
 * for one request on a given database, each run under EXPLAIN ANALYZE (PostgreSQL), with its time and plan.
 * How the everyday bench's slow rows were looked into (docs/decisions.md, Lists).
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';

const [url, subdomain, name, query] = process.argv.slice(2);
process.env.DATABASE_URL = url;
const { openDb } = await import('../db/client');
const schema = await import('../db/schema');
const { findAccount } = await import('../server/domain/accounts');
const { listRecords } = await import('../server/list/engine');
const { RESOURCES } = await import('../server/resources');
const handle = await openDb(url);
const pool = (handle as unknown as { pool: pg.Pool }).pool;
const seen: { text: string; params: unknown[] }[] = [];
const recording = new Proxy(pool, {
  get(target, prop) {
    if (prop === 'query')
      return (config: string | { text: string }, params: unknown[]) => {
        seen.push({ text: typeof config === 'string' ? config : config.text, params: params ?? [] });
        return (target.query as (c: unknown, p: unknown) => unknown)(config, params);
      };
    const value = Reflect.get(target, prop) as unknown;
    return typeof value === 'function' ? value.bind(target) : value;
  },
});
const account = (await findAccount(handle, subdomain))!;
const resource = RESOURCES[name as keyof typeof RESOURCES];
const db = drizzle(recording, { schema }) as never;
const raw = Object.fromEntries(new URLSearchParams(query));
const started = performance.now();
const res = await listRecords(resource as never, { db, accountId: account.id, url: `http://x/v3/api/${name}` }, raw);
console.log(
  `${name}?${query}: ${(performance.now() - started).toFixed(1)} ms, ${res.data.length} rows, meta ${JSON.stringify(res.meta)}`,
);
for (const s of seen) {
  if (/^explain/i.test(s.text)) continue;
  const r = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${s.text}`, s.params as unknown[]);
  console.log(`\n${s.text.slice(0, 400)}\n${JSON.stringify(s.params)}`);
  console.log(r.rows.map((x: Record<string, string>) => x['QUERY PLAN']).join('\n'));
}
await handle.close();
