/**
 * The cascade row of `npm run bench` (`tsx bench/cascade.ts sqlite|pg`, one process per dialect): what
 * deleting a patient with a long history costs now that everything that goes with them is announced and
 * tombstoned in the same transaction (server/domain/cascade.ts). Each loaded patient has 2 numbers, an
 * address, 2,000 timeline entries (500 of them tagged) and 200 clinical notes; the clinic has two webhook
 * endpoints subscribed to every event, so each announced record also writes two messages. DELETE
 * /patients/{id} is timed one request at a time for 10 loaded patients and for 10 without history, on the
 * app as it runs (bench/app-server.ts). Target: a loaded delete within 2 s (p99): the 4,703 records it
 * takes are announced in batches of 500 rows a statement. Prints `ROWS <json>` for bench/run.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { percentiles, postJson, requestJson, startServer, stopServers, type Target } from './measure';
import { startPostgres } from './pg-data';
import type { Row } from './report';

const ROOT = path.resolve(import.meta.dirname, '..');
const dialect = process.argv[2] === 'pg' ? 'pg' : 'sqlite';
const PATIENTS = 10;
const LOGS = 2_000;
const TAGGED = 500;
const NOTES = 200;
const say = (msg: string) => console.log(`[cascade ${dialect}] ${msg}`);

const pgServer = dialect === 'pg' ? startPostgres() : null;
try {
  const url = pgServer?.url ?? path.join(ROOT, 'data', 'bench', 'cascade.db');
  if (!pgServer) {
    fs.mkdirSync(path.dirname(url), { recursive: true });
    for (const f of [url, `${url}-wal`, `${url}-shm`]) fs.rmSync(f, { force: true });
  }
  process.env.DATABASE_URL = url;
  const { openDb } = await import('../db/client');
  const schema = await import('../db/schema');
  const { createAccount } = await import('../server/domain/accounts');
  const { createKey } = await import('../server/domain/api_keys');
  const { createEndpoint } = await import('../server/domain/webhooks');
  const { loadSecretsKey } = await import('../server/auth/secrets');

  const db = await openDb(url, { migrate: true });
  await loadSecretsKey(db);
  const actor = { actor_type: 'system' as const, actor_id: null, actor_name: 'bench' };
  const account = await createAccount(db, {
    subdomain: 'bench-cascade',
    region: 'neptune',
    name: 'Cascade Clinic',
    timezone: 'Europe/London',
    currency: 'GBP',
  });
  const key = (await createKey(db, account, actor, { name: 'bench', access: 'read_write' })).secret;
  for (const n of (process.env.BENCH_CASCADE_ENDPOINTS ?? '1,2').split(',').filter(Boolean))
    await createEndpoint(db, account, actor, { url: `http://127.0.0.1:9/hooks${n}`, events: 'all' }, true);
  const now = new Date().toISOString();
  const base = { account_id: account.id, metadata: {}, created_at: now, updated_at: now };
  const [tag] = await db.transaction((tx) =>
    tx
      .insert(schema.tags)
      .values({ ...base, name: 'Bench', sort_order: 1 })
      .returning({ id: schema.tags.id }),
  );

  const app = await startServer(`app, cascade (${dialect})`, 'app-server.ts', {
    DATABASE_URL: url,
    WEBHOOK_WORKER: 'off',
    REQUEST_LOG: 'off',
  });
  const t: Target = {
    port: app.port,
    headers: { host: 'bench-cascade.neptune.localhost', authorization: `Bearer ${key}` },
  };
  const patient = async () => {
    const res = await postJson(t, '/v3/api/patients', {
      first_name: 'Long',
      last_name: 'History',
      numbers: [
        { number: '07700 900123', type: 'mobile' },
        { number: '020 7946 0000', type: 'home' },
      ],
      address: { line_1: '1 High St', city: 'Leeds' },
    });
    if (res.status !== 201) throw new Error(`POST /patients answered ${res.status}`);
    return (res.body as { data: { id: number } }).data.id;
  };
  const loaded: number[] = [];
  const bare: number[] = [];
  say(`${PATIENTS} patients with ${LOGS} timeline entries (${TAGGED} tagged) and ${NOTES} notes each`);
  for (let i = 0; i < PATIENTS; i++) {
    const id = await patient();
    loaded.push(id);
    bare.push(await patient());
    await db.transaction(async (tx) => {
      const logs: number[] = [];
      for (let at = 0; at < LOGS; at += 500) {
        const rows = await tx
          .insert(schema.patientLogs)
          .values(
            Array.from({ length: Math.min(500, LOGS - at) }, () => ({
              ...base,
              patient_id: id,
              type: 'note' as const,
              data: 'Seen',
              source: 'staff' as const,
            })),
          )
          .returning({ id: schema.patientLogs.id });
        logs.push(...rows.map((r) => r.id));
      }
      await tx
        .insert(schema.patientLogTags)
        .values(logs.slice(0, TAGGED).map((logId) => ({ ...base, patient_log_id: logId, tag_id: tag.id })));
      await tx
        .insert(schema.clinicalNotes)
        .values(Array.from({ length: NOTES }, () => ({ ...base, patient_id: id, title: 'Visit', body: 'Fine.' })));
    });
  }
  const timeDeletes = async (ids: number[]) => {
    const times: number[] = [];
    for (const id of ids) {
      const res = await requestJson(t, 'DELETE', `/v3/api/patients/${id}`);
      if (res.status !== 204) throw new Error(`DELETE /patients/${id} answered ${res.status}`);
      times.push(res.ms);
    }
    return times;
  };
  const bareTimes = await timeDeletes(bare);
  const loadedTimes = await timeDeletes(loaded);
  const children = 2 + 1 + LOGS + TAGGED + NOTES;
  const [announced] = await db.all<{ n: number | string }>(
    (await import('drizzle-orm')).sql`SELECT count(*) AS n FROM deleted_entities WHERE account_id = ${account.id}`,
  );
  await db.close();
  if (Number(announced.n) !== PATIENTS * (children + 1) + PATIENTS * 4)
    throw new Error(`deleted_entities holds ${announced.n} rows, expected ${PATIENTS * (children + 1) + PATIENTS * 4}`);
  const one = percentiles(bareTimes);
  const many = percentiles(loadedTimes);
  const seq = (times: number[]) => times.length / (times.reduce((a, b) => a + b, 0) / 1000);
  const rows: Row[] = [
    {
      scenario: `${dialect === 'pg' ? 'PostgreSQL' : 'SQLite'} x. DELETE /patients/{id} with ${children.toLocaleString('en')} records`,
      server: 'app',
      connections: 1,
      rps: seq(loadedTimes),
      ...many,
      compare: `${((many.p50 - one.p50) / children).toFixed(3)} ms a record taken; 2 endpoints`,
      target: 'p99 <= 2000 ms',
      pass: many.p99 <= 2000,
    },
    {
      scenario: `${dialect === 'pg' ? 'PostgreSQL' : 'SQLite'} x. DELETE /patients/{id}, numbers and address only`,
      server: 'app',
      connections: 1,
      rps: seq(bareTimes),
      ...one,
    },
  ];
  console.log(`ROWS ${JSON.stringify(rows)}`);
} finally {
  stopServers();
  pgServer?.stop();
}
