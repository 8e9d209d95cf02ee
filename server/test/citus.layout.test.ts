/**
 * On a Citus cluster (CITUS_WORKERS set: scripts/citus-temp.sh, the Citus stage of test:all), the layout
 * `clinic citus distribute` makes (db/citus.ts): every tenant table distributed by account_id in one
 * co-location group, the declared reference tables replicated, the coordinator's own tables left local;
 * distributing again does nothing; and every list resource's first page of one clinic is a router query,
 * one task on one shard (generated from the resources, so a new one is covered the day it is added).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import pg from 'pg';
import { CLUSTER_ROLES, distribute, distributionPlan } from '../../db/citus';
import { migrateDb, migrationsRoot, openDb } from '../../db/client';
import { listRecords } from '../list/engine';
import { findRow, getRow } from '../resources/queries';
import { RESOURCES } from '../resources';
import type { Resource } from '../resources/define';
import { client, newClinic, useClinic } from './helpers';
import { onCitusRun as onCitus, notRouted } from './support/citus-routing';
import { createClusterDatabase, dropClusterDatabase } from './support/cluster-database';
import { recordingDb, type Captured } from './support/recording-db';

const t = useClinic({ seed: true });

describe.runIf(onCitus)('the Citus layout (only on Citus)', () => {
  const query = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) => {
    const pool = (t.server.app.db as unknown as { pool: pg.Pool }).pool;
    return (await pool.query<T>(text, params)).rows;
  };

  test('tenant tables are distributed by account_id in one group; reference and local tables as declared', async () => {
    const rows = await query<{ name: string; kind: string; column: string | null; colocation: number }>(`
      select logicalrelid::regclass::text as name, partmethod as kind,
        case when partmethod = 'h' then column_to_column_name(logicalrelid, partkey) end as column, colocationid as colocation
      from pg_dist_partition where not exists (select 1 from pg_inherits i where i.inhrelid = logicalrelid)`);
    const reference = Object.entries(CLUSTER_ROLES).filter(([, r]) => r.role === 'reference');
    const local = Object.entries(CLUSTER_ROLES).filter(([, r]) => r.role === 'local');
    expect(
      rows
        .filter((r) => r.kind === 'n')
        .map((r) => r.name)
        .sort(),
    ).toEqual(reference.map(([n]) => n).sort());
    for (const [name] of local) expect(rows.map((r) => r.name)).not.toContain(name);
    const hashed = rows.filter((r) => r.kind === 'h');
    expect(hashed.length).toBeGreaterThan(40);
    expect(new Set(hashed.map((r) => r.column))).toEqual(new Set(['account_id']));
    expect(new Set(hashed.map((r) => r.colocation)).size).toBe(1);
  });

  test('distributing again does nothing', async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      expect(await distributionPlan(client)).toEqual([]);
    } finally {
      await client.end();
    }
    expect(await distribute(process.env.DATABASE_URL!)).toEqual([]);
  });

  const listed = (Object.values(RESOURCES) as Resource[]).filter((r) => r.list);
  /** Every statement a router query: one task. */
  const expectRouted = async (statements: Captured[]) => {
    expect(statements.length).toBeGreaterThan(0);
    const pool = (t.server.app.db as unknown as { pool: pg.Pool }).pool;
    expect(await notRouted(pool, statements)).toEqual([]);
  };
  test.each(listed.map((r) => [r.name, r] as const))(
    '%s: a clinic’s first page is one task on one shard',
    async (_name, r) => {
      const { db, statements } = recordingDb(t.server);
      await listRecords(r, { db, accountId: t.clinic.account.id, url: `http://${t.clinic.host}/v3/api/${r.name}` }, {});
      await expectRouted(statements);
    },
  );

  test.each(listed.map((r) => [r.name, r] as const))(
    '%s: a record read by id is one task on one shard, prepared (GET) and as a write reads it',
    async (_name, r) => {
      const { db, statements } = recordingDb(t.server);
      const [first] = (await listRecords(r, { db, accountId: t.clinic.account.id, url: 'http://x/' }, {})).data as {
        id: number;
      }[];
      // A record's own id (the events' is their event_id: their row id is read here instead).
      const id = typeof first?.id === 'number' ? first.id : 1;
      statements.length = 0;
      await getRow(db, r, t.clinic.account.id, id).catch(() => undefined);
      await expectRouted(statements);
      statements.length = 0;
      await findRow(db, r, t.clinic.account.id, id);
      await expectRouted(statements);
    },
  );

  test(
    'migrations after distribution: a database distributed at 0034 migrates to the last one and a later one; the tables they add join the group',
    { timeout: 240_000 },
    async () => {
      const server = process.env.CLINIC_TEST_SERVER_URL!;
      const name = `clinic_steps_${randomBytes(4).toString('hex')}`;
      // A copy of the migrations whose journal first stops at 0034, then goes on past the last one with
      // a migration that a local table could not take: a new tenant table keyed to tags, filled from them
      // (the coordinator's shell of a distributed table is empty: a local table's key finds no tag there).
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'clinic-migrations-'));
      fs.cpSync(path.join(migrationsRoot, 'pg'), folder, { recursive: true });
      const journalFile = path.join(folder, 'meta', '_journal.json');
      type Entry = { idx: number; when: number; tag: string; version: string; breakpoints: boolean };
      const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: Entry[] };
      const all = journal.entries;
      const last = all[all.length - 1];
      const later = { ...last, idx: last.idx + 1, when: last.when + 1, tag: '9999_steps_notes' };
      fs.writeFileSync(
        path.join(folder, `${later.tag}.sql`),
        `CREATE TABLE "steps_notes" ("id" bigint GENERATED BY DEFAULT AS IDENTITY, "account_id" bigint NOT NULL,
           "tag_id" bigint NOT NULL, CONSTRAINT "steps_notes_pkey" PRIMARY KEY ("account_id", "id"));
         --> statement-breakpoint
         ALTER TABLE "steps_notes" ADD CONSTRAINT "steps_notes_tag_fk" FOREIGN KEY ("account_id", "tag_id")
           REFERENCES "tags" ("account_id", "id");
         --> statement-breakpoint
         INSERT INTO "steps_notes" ("account_id", "tag_id") SELECT "account_id", "id" FROM "tags";`,
      );
      const journalUpTo = (entries: Entry[]) => fs.writeFileSync(journalFile, JSON.stringify({ ...journal, entries }));
      const url = await createClusterDatabase(server, name);
      const client = new pg.Client({ connectionString: url });
      try {
        const db = await openDb(url);
        journalUpTo(all.filter((e) => e.tag < '0035'));
        await migrateDb(db, folder);
        expect((await distribute(url, 4)).length).toBeGreaterThan(40);
        await client.connect();
        const [{ id: accountId }] = (
          await client.query<{ id: string }>(`insert into accounts (subdomain, region, name, timezone, currency, locale,
            generation, invoice_counter, created_at, updated_at) values ('steps', 'uk', 'Steps', 'Europe/London', 'GBP',
            'en-GB', 'current', 7, now(), now()) returning id`)
        ).rows;
        await client.query(
          `insert into tags (account_id, metadata, created_at, updated_at, name, sort_order) values ($1, '{}', now(), now(), 'VIP', 1)`,
          [accountId],
        );
        // 0035 adds a column to a distributed partitioned table, 0036 tables, 0041 a table filled from a
        // reference table and a column dropped from that one; the later one a key to a distributed table.
        journalUpTo([...all, later]);
        await migrateDb(db, folder);
        await db.close();
        expect(await distributionPlan(client)).toEqual([]);
        const added = ['invoice_counters', 'passkeys', 'password_links', 'patients', 'recovery_codes', 'steps_notes'];
        const { rows } = await client.query<{ name: string; colocation: number }>(
          `select logicalrelid::text as name, colocationid as colocation from pg_dist_partition
            where logicalrelid::text = any($1)`,
          [added],
        );
        expect(rows.map((r) => r.name).sort()).toEqual(added);
        expect(new Set(rows.map((r) => r.colocation)).size).toBe(1);
        // The counter 0041 carried over, and the later migration's rows, each on the clinic's shard.
        const counters = await client.query(`select last_number from invoice_counters where account_id = $1`, [
          accountId,
        ]);
        expect(counters.rows).toEqual([{ last_number: 7 }]);
        const notes = await client.query(`select count(*)::int as n from steps_notes where account_id = $1`, [
          accountId,
        ]);
        expect(notes.rows).toEqual([{ n: 1 }]);
      } finally {
        await client.end().catch(() => undefined);
        await dropClusterDatabase(server, name);
        fs.rmSync(folder, { recursive: true, force: true });
      }
    },
  );

  test(
    'a clinic moved to shards of its own while it works: every request answers, nothing is lost',
    { timeout: 240_000 },
    async () => {
      const clinic = await newClinic(t.server);
      const api = client(t.server, clinic);
      const statuses: number[] = [];
      const created: number[] = [];
      let moving = true;
      // Writes and reads of the clinic, one after another, until the move is over and three more after.
      const work = (async () => {
        for (let after = 0; after < 3; after += moving ? 0 : 1) {
          const made = await api.post('/patients', { body: { first_name: 'Moving', last_name: `N${created.length}` } });
          statuses.push(made.status);
          if (made.status === 201) created.push(made.body.data.id);
          statuses.push((await api.get('/patients?page_size=5')).status);
        }
      })();
      while (created.length < 3) await new Promise((r) => setTimeout(r, 20));
      const started = Date.now();
      // Without logical replication (wal_level) the move blocks the clinic's writes while it copies.
      await query(
        `select isolate_tenant_to_new_shard('patients', $1::bigint, 'CASCADE', shard_transfer_mode => 'block_writes')`,
        [clinic.account.id],
      );
      const took = Date.now() - started;
      moving = false;
      await work;
      expect(new Set(statuses)).toEqual(new Set([200, 201]));
      const [{ n }] = await query<{ n: number }>(`select count(*)::int as n from patients where account_id = $1`, [
        clinic.account.id,
      ]);
      expect(n).toBe(created.length);
      const listed = await api.get(`/patients?page_size=100`);
      expect(listed.body.data.map((p: { id: number }) => p.id).sort((a: number, b: number) => a - b)).toEqual(
        [...created].sort((a, b) => a - b),
      );
      // The clinic's shard of every table holds its hash alone.
      const shards = await query<{ min: string; max: string }>(
        `select shardminvalue as min, shardmaxvalue as max from pg_dist_shard
          where shardid = get_shard_id_for_distribution_column('patients', $1::bigint)`,
        [clinic.account.id],
      );
      expect(shards).toHaveLength(1);
      expect(shards[0].min).toBe(shards[0].max);
      console.log(`isolate_tenant_to_new_shard: ${took} ms; ${statuses.length} requests during and after`);
    },
  );
});
