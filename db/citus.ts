/**
 * The layout on a Citus cluster (issue 40): every table with an `account_id` is distributed by it, all in
 * one co-location group (a clinic's rows of every table on one shard, so a clinic's joins and
 * transactions stay on one node); the tables without one are declared here with their role, and the
 * catalog test (server/test/db.catalog.test.ts) fails on a table that is neither.
 * `clinic citus distribute` applies it, idempotently: reference tables first, then the tenant tables in
 * the order of their foreign keys (a table after every table it references), read from the catalog, so
 * partitioned tables are distributed as their parent (their partitions follow) and a new table needs no
 * list. docs/operations.md, "Scaling beyond one PostgreSQL".
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { DbHandle } from './client';

/** Tables with no account_id, and what each is on a cluster. */
export const CLUSTER_ROLES = {
  accounts: { role: 'reference', why: 'the clinics themselves (host → account), read by every request' },
  settings: { role: 'reference', why: 'installation-wide settings (the webhook secrets key)' },
  job_leases: { role: 'local', why: 'which process runs each background job: one row per job, on the coordinator' },
  rate_limit_buckets: {
    role: 'local',
    why: 'request budgets by key or client address, across clinics: on the coordinator',
  },
} as const satisfies Record<string, { role: 'reference' | 'local'; why: string }>;

export const DEFAULT_SHARD_COUNT = 32;

/** Rows when the database has the extension: a Citus coordinator (or node). */
const HAS_CITUS = `select 1 as one from pg_extension where extname = 'citus'`;

const citusByHandle = new WeakMap<DbHandle, Promise<boolean>>();

/** Whether the handle's database is a Citus coordinator (asked once per handle). */
export function onCitus(db: DbHandle): Promise<boolean> {
  if (db.dialect !== 'pg') return Promise.resolve(false);
  let known = citusByHandle.get(db);
  if (!known) {
    known = db.all<{ one: number }>(sql.raw(HAS_CITUS)).then((rows) => rows.length > 0);
    citusByHandle.set(db, known);
  }
  return known;
}

export interface DistributionStep {
  table: string;
  sql: string;
}

interface CatalogTable {
  name: string;
  tenant: boolean;
  distributed: boolean;
}

/** What `distribute` would still do on this database: the steps, in order (empty when all is done). */
export async function distributionPlan(
  client: pg.ClientBase,
  shardCount = DEFAULT_SHARD_COUNT,
): Promise<DistributionStep[]> {
  const { rows: tables } = await client.query<CatalogTable>(`
    select c.relname as name,
      exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'account_id' and not a.attisdropped) as tenant,
      exists (select 1 from pg_dist_partition d where d.logicalrelid = c.oid) as distributed
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition
    order by 1`);
  const { rows: references } = await client.query<{ child: string; parent: string }>(`
    select distinct c.relname as child, p.relname as parent
    from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
    join pg_namespace n on n.oid = c.relnamespace
    where k.contype = 'f' and n.nspname = current_schema() and c.oid <> p.oid and not c.relispartition`);
  const unknown = tables.filter((t) => !t.tenant && !Object.hasOwn(CLUSTER_ROLES, t.name)).map((t) => t.name);
  if (unknown.length) throw new Error(`tables with no account_id and no role in db/citus.ts: ${unknown.join(', ')}`);
  const steps: DistributionStep[] = [];
  const roles = CLUSTER_ROLES as Record<string, { role: string }>;
  for (const t of tables)
    if (!t.tenant && roles[t.name].role === 'reference' && !t.distributed)
      steps.push({ table: t.name, sql: `SELECT create_reference_table('${t.name}')` });
  // The tenant tables, parents before children; the group is anchored on the first one distributed.
  const tenants = tables.filter((t) => t.tenant);
  const parents = new Map(tenants.map((t) => [t.name, new Set<string>()]));
  for (const r of references) if (parents.has(r.child) && parents.has(r.parent)) parents.get(r.child)!.add(r.parent);
  const ordered: CatalogTable[] = [];
  const placed = new Set<string>();
  while (ordered.length < tenants.length) {
    const next = tenants.find((t) => !placed.has(t.name) && [...parents.get(t.name)!].every((p) => placed.has(p)));
    if (!next) throw new Error('the foreign keys between tenant tables form a cycle');
    ordered.push(next);
    placed.add(next.name);
  }
  // Citus refuses a distributed table with triggers (unless citus.enable_unsafe_triggers): the offset
  // counts' go first, and offset pages on a cluster read the rows they skip (decision 254).
  const { rows: triggers } = await client.query<{ name: string; table: string }>(`
    select t.tgname as name, c.relname as table from pg_trigger t join pg_class c on c.oid = t.tgrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and not t.tgisinternal and t.tgname like '%\\_offsets\\_%'`);
  let group = ordered.find((t) => t.distributed)?.name;
  for (const t of ordered) {
    if (t.distributed) continue;
    for (const trigger of triggers.filter((x) => x.table === t.name))
      steps.push({ table: t.name, sql: `DROP TRIGGER IF EXISTS "${trigger.name}" ON "${t.name}"` });
    steps.push({
      table: t.name,
      sql: group
        ? `SELECT create_distributed_table('${t.name}', 'account_id', colocate_with => '${group}')`
        : `SELECT create_distributed_table('${t.name}', 'account_id', colocate_with => 'none', shard_count => ${shardCount})`,
    });
    group ??= t.name;
  }
  return steps;
}

/** Applies the plan, one table at a time (each its own transaction); returns what it did. */
async function applyPlan(client: pg.ClientBase, steps: DistributionStep[], say: (line: string) => void) {
  for (const step of steps) {
    const started = Date.now();
    await client.query(step.sql);
    say(
      `${step.table}: ${step.sql.startsWith('DROP TRIGGER') ? 'trigger dropped' : step.sql.includes('reference') ? 'reference table' : 'distributed'} (${Date.now() - started} ms)`,
    );
  }
  return steps;
}

/** Distributes the database (`clinic citus distribute`): what it did, nothing when all was done. */
export async function distribute(
  url: string,
  shardCount = DEFAULT_SHARD_COUNT,
  say: (line: string) => void = () => {},
) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(HAS_CITUS);
    if (rows.length === 0) throw new Error('this database has no citus extension: not a Citus coordinator');
    return await applyPlan(client, await distributionPlan(client, shardCount), say);
  } finally {
    await client.end();
  }
}

/**
 * After migrations (db/client.ts migrateDb): on a Citus coordinator already distributed, the tables the
 * migrations added are distributed too (a new tenant table in the clinics' group, a new reference table
 * replicated); elsewhere, nothing. Until then a new table is the coordinator's own, and Citus takes what a
 * migration does with it (keys to distributed tables, rows copied from them: server/test/citus.layout.test.ts);
 * distributing copies its rows to the shards.
 */
export async function distributeNew(client: pg.ClientBase): Promise<DistributionStep[]> {
  if ((await client.query(HAS_CITUS)).rows.length === 0) return [];
  const { rows } = await client.query(`select 1 from pg_dist_partition limit 1`);
  return rows.length === 0 ? [] : applyPlan(client, await distributionPlan(client), () => {});
}
