/**
 * Nothing acknowledged is lost on a crash. A real server process takes a write load (patients with
 * numbers and an address, appointments, invoices, payments allocated to them, idempotent POSTs), is
 * killed with SIGKILL mid-load, and is started again on the same database: every write that got a 2xx is
 * there and whole, announced exactly once, no record is half-written, and an idempotent retry replays.
 * Killed after an idempotent write commits but before it is answered, the retry replays that write's
 * answer: the answer is stored in the write's own transaction.
 * On PostgreSQL (its own throwaway server, so the rest of the suite is not disturbed) the database
 * server is then restarted under load: requests in flight fail cleanly as JSON, later ones succeed
 * without restarting the app.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { openDb, type DbHandle } from '../../db/client';
import { events, invoices, numbers, patients, paymentAllocations, payments } from '../../db/schema';
import type { Account } from '../context';
import { createAccount } from '../domain/accounts';
import { createKey } from '../domain/api_keys';
import { seedAccount } from '../seed';
import { LocalDiskStore } from '../files/store';
import { exited, root, spawnServer, type Spawned } from './support/spawn';

const onPg = /^postgres/.test(process.env.DATABASE_URL ?? '');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clinic-crash-'));

interface Pg {
  url: string;
  dir: string;
  bin: string;
}
/** A throwaway PostgreSQL server of our own (scripts/pg-temp.sh), so restarting it disturbs nobody. */
function startPg(): Pg {
  const bin = fs
    .readdirSync('/usr/lib/postgresql')
    .sort((x, y) => Number(y) - Number(x))
    .map((v) => `/usr/lib/postgresql/${v}/bin`)[0];
  const out = execFileSync(
    'bash',
    ['-c', `source scripts/pg-temp.sh && pg_temp_start "${bin}" >/dev/null && echo "$PG_TEMP_URL $PG_TEMP_DIR"`],
    { cwd: root },
  )
    .toString()
    .trim();
  const [url, dir] = out.split(' ');
  return { url, dir, bin };
}
/**
 * pg_ctl on our server, asynchronously so the load keeps running while it works. The server it starts
 * logs to a file: with its output on our pipe, the pipe would stay open as long as the server runs.
 */
function pgCtl(pg: Pg, ...args: string[]): Promise<void> {
  const as = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  const cmd = [...as, `${pg.bin}/pg_ctl`, '-D', `${pg.dir}/data`, '-l', `${pg.dir}/log`, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd[0], cmd.slice(1), { stdio: 'ignore' });
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`pg_ctl ${args.join(' ')} exited with ${code}`)),
    );
  });
}

let pg: Pg | null = null;
let url: string;
let db: DbHandle;
let account: Account;
let key: string;
let combo: { patient_id: number; practitioner_id: number; location_id: number; appointment_type_id: number };
let billableItemId: number;
let cashMethodId: number;
const host = () => `${account.subdomain}.${account.region}.localhost`;

/** bench/app-server.ts: the real API server in its own process, rate limits lifted. */
const startServer = () =>
  spawnServer('bench/app-server.ts', { DATABASE_URL: url, FILES_DIR: path.join(work, 'files') });

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}
/** One request on a fresh connection; a reset or refused connection is `null`. */
function send(
  s: Spawned,
  method: string,
  p: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply | null> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: s.port,
        method,
        path: `/v3/api${p}`,
        agent: false,
        headers: {
          host: host(),
          authorization: `Bearer ${key}`,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }
            : {}),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
        res.on('error', () => resolve(null));
      },
    );
    req.on('error', () => resolve(null));
    req.setTimeout(15_000, () => req.destroy());
    req.end(payload);
  });
}

type Kind = 'patient' | 'appointment' | 'payment';
interface Acked {
  kind: Kind;
  id: number;
  idempotencyKey?: string;
  invoiceId?: number;
  text: string;
}

/** Writers in parallel until `stop()`; every 2xx is recorded. */
async function writeLoad(
  s: Spawned,
  workers: number,
  isStopped: () => boolean,
  acked: Acked[] = [],
): Promise<{ acked: Acked[]; sent: number }> {
  let sent = 0;
  let n = 0;
  const worker = async (w: number) => {
    for (let i = 0; !isStopped(); i++) {
      const seq = n++;
      const kind: Kind = (['patient', 'appointment', 'payment'] as const)[(w + i) % 3];
      sent++;
      if (kind === 'patient') {
        const idempotencyKey = `crash-${process.pid}-${seq}`;
        const body = {
          first_name: `Crash${seq}`,
          last_name: 'Load',
          numbers: [
            { number: '07700900001', type: 'mobile' },
            { number: '02079460001', type: 'home' },
          ],
          address: { line_1: `${seq} Crash Road`, city: 'London' },
        };
        const r = await send(s, 'POST', '/patients', body, { 'idempotency-key': idempotencyKey });
        if (r?.status === 201) acked.push({ kind, id: JSON.parse(r.text).data.id, idempotencyKey, text: r.text });
      } else if (kind === 'appointment') {
        const minute = String(seq % 60).padStart(2, '0');
        const r = await send(s, 'POST', '/appointments', {
          ...combo,
          starts_at: `2032-0${1 + (seq % 9)}-1${seq % 10}T0${seq % 10}:${minute}:00`,
          allow_clash: true,
          notes: 'crash',
        });
        if (r?.status === 201) acked.push({ kind, id: JSON.parse(r.text).data.id, text: r.text });
      } else {
        const inv = await send(s, 'POST', '/invoices', {
          patient_id: combo.patient_id,
          note: 'crash',
          line_items: [{ billable_item_id: billableItemId, quantity: 1 }],
        });
        if (inv?.status !== 201) continue;
        const invoiceId = JSON.parse(inv.text).data.id;
        const r = await send(s, 'POST', '/payments', {
          patient_id: combo.patient_id,
          payment_method_id: cashMethodId,
          amount: '1.00',
          note: 'crash',
          allocations: [{ invoice_id: invoiceId, amount: '1.00' }],
        });
        if (r?.status === 201) acked.push({ kind, id: JSON.parse(r.text).data.id, invoiceId, text: r.text });
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  return { acked, sent };
}

const createdEvents = async (entity: string, ids: number[]) =>
  ids.length === 0
    ? []
    : db.db
        .select({ id: events.entity_id, n: sql<number>`count(*)` })
        .from(events)
        .where(
          and(eq(events.account_id, account.id), eq(events.type, `${entity}.created`), inArray(events.entity_id, ids)),
        )
        .groupBy(events.entity_id);

beforeAll(async () => {
  if (onPg) pg = startPg();
  url = pg ? pg.url : path.join(work, 'crash.db');
  db = await openDb(url, { migrate: true });
  account = await createAccount(db, {
    subdomain: `crash${process.pid}`,
    region: 'neptune',
    name: 'Crash Clinic',
    timezone: 'Europe/London',
    currency: 'GBP',
  });
  await seedAccount(db, account, new LocalDiskStore(path.join(work, 'files')));
  key = (
    await createKey(
      db,
      account,
      { actor_type: 'user', actor_id: null, actor_name: 'crash test' },
      { name: 'Load', access: 'read_write' },
    )
  ).secret;
  const [p] = await db.db
    .select({ id: patients.id })
    .from(patients)
    .where(eq(patients.account_id, account.id))
    .limit(1);
  const s = await startServer();
  const get = async (q: string) => JSON.parse((await send(s, 'GET', q))!.text).data;
  const appt = (await get('/appointments?page_size=1&sort=id'))[0];
  combo = {
    patient_id: p.id,
    practitioner_id: appt.practitioner_id,
    location_id: appt.location_id,
    appointment_type_id: appt.appointment_type_id,
  };
  billableItemId = (await get('/billable_items?active=true'))[0].id;
  cashMethodId = (await get('/payment_methods?active=true&name=Cash'))[0].id;
  s.child.kill('SIGTERM');
  await exited(s);
}, 120_000);

afterAll(async () => {
  await db?.close();
  if (pg) await pgCtl(pg, '-m', 'immediate', 'stop');
  fs.rmSync(work, { recursive: true, force: true });
});

describe(`crash safety (${onPg ? 'PostgreSQL' : 'SQLite'})`, () => {
  it(
    'SIGKILL mid-load: every acknowledged write is there, whole, announced once; no half-written record; idempotent retries replay',
    { timeout: 120_000 },
    async () => {
      const first = await startServer();
      let killed = false;
      // Killed once enough writes were acknowledged (at least 1.5 s in), however busy the machine is.
      const soFar: Acked[] = [];
      const load = writeLoad(first, 8, () => killed, soFar);
      const started = Date.now();
      while ((soFar.length <= 30 || Date.now() - started < 1500) && Date.now() - started < 30_000)
        await new Promise((r) => setTimeout(r, 50));
      first.child.kill('SIGKILL');
      killed = true;
      const { acked, sent } = await load;
      await exited(first);
      expect(acked.length, 'the load got writes acknowledged before the kill').toBeGreaterThan(20);

      const second = await startServer();
      try {
        const found = { patient: 0, appointment: 0, payment: 0 };
        for (const a of acked) {
          const res = await send(second, 'GET', `/${a.kind}s/${a.id}`);
          expect(res?.status, `${a.kind} ${a.id} acknowledged before the kill`).toBe(200);
          const now = JSON.parse(res!.text).data;
          if (a.kind === 'patient') {
            expect(now.numbers).toHaveLength(2);
            expect(now.address?.line_1).toMatch(/Crash Road$/);
          }
          if (a.kind === 'payment') {
            expect(
              now.allocations.map((x: { invoice_id: number; amount: string }) => [x.invoice_id, x.amount]),
            ).toEqual([[a.invoiceId, '1.00']]);
            const invoice = JSON.parse((await send(second, 'GET', `/invoices/${a.invoiceId}`))!.text).data;
            expect(invoice.amount_paid).toBe('1.00');
          }
          found[a.kind]++;
        }
        for (const kind of ['patient', 'appointment', 'payment'] as const) {
          const ids = acked.filter((a) => a.kind === kind).map((a) => a.id);
          const counted = await createdEvents(`${kind}s`, ids);
          expect(counted.length, `${kind}s acknowledged with a created event`).toBe(ids.length);
          expect(
            counted.every((c) => Number(c.n) === 1),
            `each ${kind} announced exactly once`,
          ).toBe(true);
        }

        // No half-written record anywhere, acknowledged or not: every load patient has both numbers and
        // its address, every load payment's allocations add up, and every record has its one event.
        const loadPatients = await db.db
          .select({ id: patients.id })
          .from(patients)
          .where(and(eq(patients.account_id, account.id), eq(patients.last_name, 'Load')));
        const numberCounts = await db.db
          .select({ id: numbers.patient_id, n: sql<number>`count(*)` })
          .from(numbers)
          .where(
            and(
              eq(numbers.account_id, account.id),
              inArray(numbers.patient_id, loadPatients.map((p) => p.id).concat(0)),
            ),
          )
          .groupBy(numbers.patient_id);
        expect(numberCounts.length).toBe(loadPatients.length);
        expect(numberCounts.every((c) => Number(c.n) === 2)).toBe(true);
        expect(
          (
            await createdEvents(
              'patients',
              loadPatients.map((p) => p.id),
            )
          ).length,
        ).toBe(loadPatients.length);
        const loadPayments = await db.db
          .select({ id: payments.id, allocated: payments.allocated_minor })
          .from(payments)
          .where(and(eq(payments.account_id, account.id), eq(payments.note, 'crash')));
        for (const p of loadPayments) {
          const [{ total }] = await db.db
            .select({ total: sql<number>`coalesce(sum(${paymentAllocations.amount_minor}), 0)` })
            .from(paymentAllocations)
            .where(eq(paymentAllocations.payment_id, p.id));
          expect(Number(total), `payment ${p.id}`).toBe(p.allocated);
        }
        const loadInvoices = await db.db
          .select({ id: invoices.id })
          .from(invoices)
          .where(and(eq(invoices.account_id, account.id), eq(invoices.note, 'crash')));
        expect(
          (
            await createdEvents(
              'invoices',
              loadInvoices.map((i) => i.id),
            )
          ).length,
        ).toBe(loadInvoices.length);

        // An idempotent retry of an acknowledged POST replays it rather than creating a second patient.
        const again = acked.filter((a) => a.idempotencyKey).slice(-3);
        for (const a of again) {
          const body = JSON.parse(a.text).data;
          const retry = await send(
            second,
            'POST',
            '/patients',
            {
              first_name: body.first_name,
              last_name: 'Load',
              numbers: [
                { number: '07700900001', type: 'mobile' },
                { number: '02079460001', type: 'home' },
              ],
              address: { line_1: body.address.line_1, city: 'London' },
            },
            { 'idempotency-key': a.idempotencyKey! },
          );
          expect(retry?.status).toBe(201);
          expect(retry?.headers['idempotent-replayed']).toBe('true');
          expect(JSON.parse(retry!.text).data.id).toBe(a.id);
        }
        const after = await db.db
          .select({ id: patients.id })
          .from(patients)
          .where(and(eq(patients.account_id, account.id), eq(patients.last_name, 'Load')));
        expect(after.length).toBe(loadPatients.length);
        console.log(
          `crash (${onPg ? 'PostgreSQL' : 'SQLite'}): ${sent} writes sent, ${acked.length} acknowledged (${found.patient} patients, ${found.appointment} appointments, ${found.payment} payments), ${acked.length} found after restart, 0 lost`,
        );
      } finally {
        second.child.kill('SIGTERM');
        await exited(second);
      }
    },
  );

  it(
    'SIGKILL after an idempotent write commits, before it is answered: one record, and the retry replays the original status and body',
    { timeout: 120_000 },
    async () => {
      const first = await spawnServer('server/test/support/committed-server.ts', {
        DATABASE_URL: url,
        FILES_DIR: path.join(work, 'files'),
      });
      const committed = new Promise<void>((resolve) => {
        let out = '';
        first.child.stdout!.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.includes('COMMITTED')) resolve();
        });
      });
      const idempotencyKey = `committed-${process.pid}`;
      const body = {
        first_name: `Committed${process.pid}`,
        last_name: 'Unanswered',
        address: { line_1: '1 Commit Lane', city: 'London' },
      };
      const unanswered = send(first, 'POST', '/patients', body, { 'idempotency-key': idempotencyKey });
      await committed;
      first.child.kill('SIGKILL');
      await exited(first);
      expect(await unanswered, 'the client got no answer').toBeNull();
      const stored = () =>
        db.db
          .select({ id: patients.id })
          .from(patients)
          .where(and(eq(patients.account_id, account.id), eq(patients.first_name, body.first_name)));
      const [created, ...others] = await stored();
      expect(created, 'the write committed before the kill').toBeDefined();
      expect(others).toHaveLength(0);

      const second = await startServer();
      try {
        const retry = await send(second, 'POST', '/patients', body, { 'idempotency-key': idempotencyKey });
        expect(retry?.status, retry?.text).toBe(201);
        expect(retry?.headers['idempotent-replayed']).toBe('true');
        // The original answer: the patient as the write created it, no other.
        const record = await send(second, 'GET', `/patients/${created.id}`);
        expect(JSON.parse(retry!.text)).toEqual(JSON.parse(record!.text));
        const again = await send(second, 'POST', '/patients', body, { 'idempotency-key': idempotencyKey });
        expect([again?.status, again?.headers['idempotent-replayed'], again?.text]).toEqual([201, 'true', retry!.text]);
        expect(await stored(), 'exactly one record').toHaveLength(1);
      } finally {
        second.child.kill('SIGTERM');
        await exited(second);
      }
    },
  );

  it.runIf(onPg)(
    'PostgreSQL restarted under load: requests in flight fail as JSON, later ones succeed without restarting the app (only on PostgreSQL)',
    { timeout: 120_000 },
    async () => {
      const s = await startServer();
      try {
        const replies: (Reply | null)[] = [];
        let stop = false;
        const loop = async () => {
          for (let i = 0; !stop; i++) {
            replies.push(
              i % 2
                ? await send(s, 'GET', `/patients/${combo.patient_id}`)
                : await send(s, 'POST', '/patients', { first_name: 'During', last_name: 'Restart' }),
            );
          }
        };
        const loops = Promise.all(Array.from({ length: 4 }, loop));
        await new Promise((r) => setTimeout(r, 300));
        await pgCtl(
          pg!,
          '-m',
          'fast',
          '-w',
          'restart',
          '-o',
          `-p ${new URL(pg!.url).port} -k ${pg!.dir} -c listen_addresses=127.0.0.1`,
        );
        await new Promise((r) => setTimeout(r, 300));
        stop = true;
        await loops;
        // Every request got an answer: a success, or a JSON error (never a reset connection or HTML).
        expect(
          replies.every((r) => r !== null),
          'no request was left without an answer',
        ).toBe(true);
        for (const r of replies) {
          if (r!.status < 300) continue;
          expect([500, 503], r!.text).toContain(r!.status);
          expect(Object.keys(JSON.parse(r!.text)).sort()).toEqual(['code', 'message']);
        }
        // The pool reconnects by itself: within a few seconds reads and writes succeed again.
        let ok = false;
        for (let i = 0; i < 50 && !ok; i++) {
          const [read, write] = [
            await send(s, 'GET', `/patients/${combo.patient_id}`),
            await send(s, 'POST', '/patients', { first_name: 'After', last_name: 'Restart' }),
          ];
          ok = read?.status === 200 && write?.status === 201;
          if (!ok) await new Promise((r) => setTimeout(r, 100));
        }
        expect(ok, 'reads and writes succeed after the restart, same app process').toBe(true);
        expect(s.child.exitCode).toBeNull();
        console.log(
          `PostgreSQL restart: ${replies.length} requests during the restart, ${replies.filter((r) => r!.status >= 500).length} failed cleanly as JSON`,
        );
      } finally {
        s.child.kill('SIGTERM');
        await exited(s);
      }
    },
  );
});
