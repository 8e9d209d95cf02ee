/**
 * Keys that distribute (issue 28 §2), read from the PostgreSQL catalog after migrations, so a new table,
 * key or index that breaks them fails here: the rules a Citus cluster enforces when a table is
 * distributed by account_id (Citus is not in Debian's packages, so they are checked here): every tenant
 * table's primary key and every unique index include account_id; the tables without one are the
 * reference and coordinator tables db/citus.ts names (docs/decisions.md, "Keys that distribute").
 *
 * Ids that last: on PostgreSQL every table's `id` is a bigint identity and every column that
 * holds another row's id is bigint, so a new table or reference declared with a 32-bit integer fails here. Then a record whose id is past 2^31 goes through the real
 * read paths (drizzle's decoders, the list's array rows, RETURNING, raw selects, the events feed) and comes
 * back a JSON number. SQLite's integers are 64-bit already.
 */
import fs from 'node:fs';
import path from 'node:path';
import { and, eq, getTableName, sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { CLUSTER_ROLES } from '../../db/citus';
import { allIn, migrationsRoot, parseInt8 } from '../../db/client';
import { isPg, partitionColumnOf } from '../../db/dialect';
import { PARTITIONED } from '../jobs/partitions';
import { events, patients } from '../../db/schema';
import { expectError, newClinic, useClinic } from './helpers';

const t = useClinic();

/** Columns named `…_id` that hold an outside identifier, not a row's id: text on purpose. */
const NOT_ROW_IDS: Record<string, string> = {
  'events.event_id': "the event's public id (a UUID in the API and webhook payloads)",
  'webhook_messages.event_id': "the delivered event's public id (events.event_id)",
  'oauth_clients.client_id': 'the OAuth client_id: a URL (Client ID Metadata Document) or a registered string',
  'oauth_grants.client_id': 'the OAuth client_id of the grant (oauth_clients.client_id)',
  'audit_log.request_id': "the request's id from the request header or generated (text, echoed in X-Request-Id)",
  'request_log.request_id': "the request's id (text, echoed in X-Request-Id)",
  'passkeys.credential_id': "the WebAuthn credential's id as the authenticator made it (base64url)",
};

interface CatalogColumn {
  table_name: string;
  column_name: string;
  data_type: string;
  is_identity: string;
  identity_maximum: string | null;
}

/** The tables partitioned by day on PostgreSQL, by their time column (db/schema: `partitionedBy`). */
const PARTITIONED_BY: Record<string, string> = isPg
  ? Object.fromEntries(
      PARTITIONED.map((p) => [getTableName(p.table), (partitionColumnOf(p.table) as { name: string }).name]),
    )
  : {};

interface CatalogIndex {
  table_name: string;
  index_name: string;
  is_primary: boolean;
  columns: string[];
}

describe('the PostgreSQL catalog after migrations', () => {
  test.runIf(isPg)(
    'every tenant table has a primary key and unique indexes that include account_id; the others are the named reference tables (only on PostgreSQL)',
    async () => {
      const tables = await t.server.app.db.all<{ table_name: string; tenant: boolean }>(sql`
      select c.relname as table_name, exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'account_id' and not a.attisdropped) as tenant
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition order by 1`);
      const indexes = await t.server.app.db.all<CatalogIndex>(sql`
      select c.relname as table_name, i.relname as index_name, x.indisprimary as is_primary,
        array(select a.attname::text from unnest(x.indkey) with ordinality k(attnum, n) join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum order by k.n) as columns
      from pg_index x join pg_class c on c.oid = x.indrelid join pg_class i on i.oid = x.indexrelid join pg_namespace s on s.oid = c.relnamespace
      where s.nspname = current_schema() and (x.indisunique or x.indisprimary) and not c.relispartition order by 1, 2`);
      const tenant = new Set(tables.filter((x) => x.tenant).map((x) => x.table_name));
      expect(tenant.size).toBeGreaterThan(40);
      // A table without account_id is one of the named ones (a new one must say what it is).
      // Each of them has its role on a Citus cluster declared in db/citus.ts (reference or coordinator-local).
      expect(tables.filter((x) => !x.tenant).map((x) => x.table_name)).toEqual(Object.keys(CLUSTER_ROLES).sort());
      // Every tenant table has a primary key, and it leads with account_id.
      const keyed = new Map(indexes.filter((i) => i.is_primary).map((i) => [i.table_name, i.columns]));
      expect(
        [...tenant]
          .filter((name) => keyed.get(name)?.[0] !== 'account_id')
          .map((name) => `${name} (${keyed.get(name)?.join(', ') ?? 'no primary key'})`),
      ).toEqual([]);
      // Every unique index of a tenant table includes account_id.
      expect(
        indexes
          .filter((i) => tenant.has(i.table_name) && !i.columns.includes('account_id'))
          .map((i) => `${i.index_name} (${i.columns.join(', ')})`),
      ).toEqual([]);
      // The ids of tenant tables are (account_id, id) keys: the id alone is no longer a key. A table
      // partitioned by time adds its partition column, as PostgreSQL requires (server/jobs/partitions.ts).
      const byId = [...tenant].filter((name) => keyed.get(name)?.includes('id'));
      expect(
        byId.filter(
          (name) =>
            keyed.get(name)?.join() !==
            ['account_id', 'id', ...(PARTITIONED_BY[name] ? [PARTITIONED_BY[name]] : [])].join(),
        ),
      ).toEqual([]);
      // And those tables are partitioned, by range of that column.
      const partitioned = await t.server.app.db.all<{ name: string; key: string }>(sql`
      select c.relname as name, pg_get_partkeydef(c.oid) as key from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'p' order by 1`);
      expect(Object.fromEntries(partitioned.map((p) => [p.name, p.key]))).toEqual(
        Object.fromEntries(Object.entries(PARTITIONED_BY).map(([name, col]) => [name, `RANGE (${col})`])),
      );
    },
  );

  test.runIf(isPg)(
    'foreign keys join rows of the same clinic: account_id on both sides, first (only on PostgreSQL)',
    async () => {
      const keys = await t.server.app.db.all<{
        name: string;
        child: string;
        columns: string[];
        parent: string;
        parent_columns: string[];
      }>(sql`
      select con.conname as name, c.relname as child, p.relname as parent,
        array(select a.attname::text from unnest(con.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i) as columns,
        array(select a.attname::text from unnest(con.confkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.i) as parent_columns
      from pg_constraint con join pg_class c on c.oid = con.conrelid join pg_class p on p.oid = con.confrelid join pg_namespace s on s.oid = c.relnamespace
      where con.contype = 'f' and s.nspname = current_schema() order by 1`);
      // The children of patients, invoices and payments at least (docs/decisions.md, "Foreign keys").
      const parents = new Set(keys.map((k) => `${k.child}→${k.parent}`));
      for (const edge of [
        'numbers→patients',
        'appointments→patients',
        'invoices→patients',
        'line_items→invoices',
        'payment_allocations→payments',
        'payment_allocations→invoices',
        'refunds→payments',
      ])
        expect(parents).toContain(edge);
      expect(
        keys
          .filter((k) => k.columns[0] !== 'account_id' || k.parent_columns.join() !== 'account_id,id')
          .map((k) => `${k.name} (${k.columns.join(', ')}) → ${k.parent} (${k.parent_columns.join(', ')})`),
      ).toEqual([]);
    },
  );

  test.runIf(isPg)(
    'a child row that names a record of another clinic is refused by its foreign key (only on PostgreSQL)',
    async () => {
      const created = await t.api.post('/patients', { body: { first_name: 'Key', last_name: 'Holder' } });
      expect(created.status).toBe(201);
      const other = [(await newClinic(t.server)).account];
      const insert = (account: number) =>
        t.server.app.db.transaction((tx) =>
          allIn(
            tx,
            sql`insert into numbers (account_id, patient_id, number, country_code, iso2, type, intl_number, metadata, created_at, updated_at)
          values (${account}, ${created.body.data.id}, '555', '1', 'US', 'mobile', '+1555', '{}', now(), now()) returning id`,
          ),
        );
      await expect(insert(other[0].id)).rejects.toMatchObject({ cause: { code: '23503' } });
      await expect(insert(t.clinic.account.id)).resolves.toHaveLength(1);
    },
  );

  test.runIf(isPg)(
    'every id is a bigint identity and every column holding a row id is bigint (only on PostgreSQL)',
    async () => {
      const columns = await t.server.app.db.all<CatalogColumn>(sql`
      select c.table_name, c.column_name, c.data_type, c.is_identity, c.identity_maximum
      from information_schema.columns c
      join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name and tb.table_type = 'BASE TABLE'
      join pg_class pc on pc.relname = c.table_name and pc.relnamespace = current_schema()::regnamespace and not pc.relispartition
      where c.table_schema = current_schema() and (c.column_name = 'id' or c.column_name like '%\_id' or c.is_identity = 'YES')
      order by c.table_name, c.column_name`);
      const named = (c: CatalogColumn) => `${c.table_name}.${c.column_name}`;
      expect(columns.filter((c) => c.column_name === 'id').length).toBeGreaterThan(30);

      // Not bigint, and not a deliberate exception: a 32-bit id or reference.
      const narrow = columns
        .filter((c) => c.data_type !== 'bigint' && !(named(c) in NOT_ROW_IDS))
        .map((c) => `${named(c)} ${c.data_type}`);
      expect(narrow).toEqual([]);
      // Every table's id is generated, by a 64-bit identity (an integer identity stops at 2^31 − 1).
      const ids = columns.filter((c) => c.column_name === 'id');
      expect(
        ids.filter((c) => c.is_identity !== 'YES' || c.identity_maximum !== '9223372036854775807').map(named),
      ).toEqual([]);
      // The exceptions exist as described (text): a stale entry would hide a renamed column.
      const byName = new Map(columns.map((c) => [named(c), c]));
      expect(Object.keys(NOT_ROW_IDS).filter((name) => byName.get(name)?.data_type !== 'text')).toEqual([]);
    },
  );

  test.runIf(isPg)(
    'identity sequences are bigint, so the next id past 2^31 − 1 is not an error (only on PostgreSQL)',
    async () => {
      const narrow = await t.server.app.db.all<{ seq: string; type: string }>(sql`
      select s.seqrelid::regclass::text as seq, s.seqtypid::regtype::text as type
      from pg_sequence s join pg_class c on c.oid = s.seqrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and s.seqtypid <> 'bigint'::regtype`);
      expect(narrow).toEqual([]);
    },
  );

  test('migrations after 0032 alter no identity column: Citus refuses that on a distributed table', () => {
    const folder = path.join(migrationsRoot, 'pg');
    const altersIdentity = /ALTER\s+COLUMN\s+\S+\s+(DROP\s+IDENTITY|ADD\s+GENERATED|SET\s+GENERATED)/i;
    const read = (f: string) => fs.readFileSync(path.join(folder, f), 'utf8');
    const files = fs.readdirSync(folder).filter((f) => f.endsWith('.sql'));
    // The check finds the statements 0032 holds (it ran before any database here was distributed).
    expect(read(files.find((f) => f.startsWith('0032_'))!)).toMatch(altersIdentity);
    expect(files.filter((f) => f > '0033' && altersIdentity.test(read(f)))).toEqual([]);
  });
});

describe('a record whose id is past 2^31 (bigint ids read as JSON numbers)', () => {
  // Moved past 2^31 in place rather than by restarting the identity: the suite's files share the database.
  test.runIf(isPg)(
    'GET, list, PATCH, the events feed and raw selects all read its id as a number (only on PostgreSQL)',
    async () => {
      const created = await t.api.post('/patients', { body: { first_name: 'Big', last_name: 'Id' } });
      expect(created.status).toBe(201);
      const small: number = created.body.data.id;
      const big = 2 ** 31 + small;
      const account = t.clinic.account.id;
      const moved = await t.server.app.db.transaction(async (tx) => {
        await tx
          .update(events)
          .set({ entity_id: big })
          .where(and(eq(events.account_id, account), eq(events.entity, 'patients'), eq(events.entity_id, small)));
        return allIn<{ id: unknown }>(
          tx,
          sql`update ${patients} set id = ${big} where account_id = ${account} and id = ${small} returning id`,
        );
      });
      // RETURNING through raw SQL: an int8 as a number, not the driver's string.
      expect(moved).toEqual([{ id: big }]);

      const one = await t.api.get(`/patients/${big}`);
      expect([one.status, one.body.data?.id]).toEqual([200, big]);
      const listed = await t.api.get(`/patients?id=${big}`);
      expect([listed.status, listed.body.data?.map((p: { id: unknown }) => p.id)]).toEqual([200, [big]]);
      const patched = await t.api.patch(`/patients/${big}`, { body: { first_name: 'Bigger' } });
      expect([patched.status, patched.body.data?.id, patched.body.data?.first_name]).toEqual([200, big, 'Bigger']);
      // The feed holds events back while older transactions are in flight (other test files' writes
      // on the shared database), so it is asked until they are out.
      const feedOf = async () => {
        const feed = await t.api.get(`/events?data.entity=patients&data.id=${big}`);
        expect(feed.status).toBe(200);
        return feed.body.data.map((e: { type: string; data: unknown }) => [e.type, e.data]);
      };
      await expect.poll(feedOf, { timeout: 15_000 }).toEqual([
        ['patients.created', { entity: 'patients', id: big }],
        ['patients.updated', { entity: 'patients', id: big }],
      ]);
      // count(*) is an int8 too.
      expect(
        await t.server.app.db.all(
          sql`select count(*) as n, max(id) as top from ${patients} where account_id = ${account} and id = ${big}`,
        ),
      ).toEqual([{ n: 1, top: big }]);
      expectError(await t.api.get(`/patients/${big + 1}`), 404, 'not_found');
    },
  );

  test('an int8 past 2^53 − 1 is kept as its exact decimal text, never a rounded number', () => {
    expect(parseInt8('2147483648')).toBe(2 ** 31);
    expect(parseInt8('-9007199254740991')).toBe(-Number.MAX_SAFE_INTEGER);
    expect(parseInt8('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseInt8('9007199254740993')).toBe('9007199254740993');
  });
});
