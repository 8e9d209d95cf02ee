/**
 * The scale rows of `npm run bench` (`tsx bench/scale.ts sqlite|pg`, one process per dialect: the
 * dialect is fixed at import time): a clinic of 1M patients and 5M appointments (bench/scale-data.ts),
 * one request at a time, for every list resource its first offset page and first cursor page, for
 * patients and appointments also every sortable order's first cursor page and a cursor page 80% of the
 * way through. Targets (issue "Scale" §1): p50 ≤ 20 ms and p99 ≤ 60 ms; the deep page within 2× of the
 * first. Then the everyday questions this data can ask (issue 41: diaries, ranges, offset page 10,000),
 * p99 ≤ 50 ms: on SQLite the only rows of them (bench/everyday.ts asks them all on PostgreSQL).
 * Prints `ROWS <json>` for bench/run.ts; `tsx bench/scale.ts pg plans` also prints each list's plans
 * (bench/scale-plans.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { keptPostgres } from './kept-postgres';
import { sequential, startServer, stopServers, type Target } from './measure';
import type { Row } from './report';

const ROOT = path.resolve(import.meta.dirname, '..');
const dialect = process.argv[2] === 'pg' ? 'pg' : 'sqlite';
const CURSOR_SECRET = 'bench-scale-cursor-secret-0123456789';
const PAGE = 25;
const say = (msg: string) => console.log(`[scale ${dialect}] ${msg}`);
// Named by its size, so a smaller trial run (BENCH_SCALE_PATIENTS, BENCH_SCALE_APPOINTMENTS) keeps its own data.
const SIZE = `${process.env.BENCH_SCALE_PATIENTS ?? 1_000_000}_${process.env.BENCH_SCALE_APPOINTMENTS ?? 5_000_000}`;

const server = dialect === 'pg' ? keptPostgres(ROOT, `scale_${SIZE}`) : null;
try {
  const url = server?.url ?? path.join(ROOT, 'data', 'bench', `scale-${SIZE}.db`);
  fs.mkdirSync(path.join(ROOT, 'data', 'bench'), { recursive: true });
  process.env.DATABASE_URL = url;
  process.env.CURSOR_SECRET = CURSOR_SECRET;
  const { prepareScale, SCALE_APPOINTMENTS, SCALE_PATIENTS } = await import('./scale-data');
  const { RESOURCES } = await import('../server/resources');
  const { encodeCursor, queryDigest, setCursorSecret } = await import('../server/list/cursor');
  setCursorSecret(CURSOR_SECRET);
  const data = await prepareScale(url);
  const app = await startServer(`app (${dialect})`, 'app-server.ts', {
    DATABASE_URL: url,
    CURSOR_SECRET,
    WEBHOOK_WORKER: 'off',
    REQUEST_LOG: 'off',
    JOBS: 'off',
  });
  const t: Target = { port: app.port, headers: { host: data.host, authorization: `Bearer ${data.key}` } };
  const time = async (p: string) => sequential(t, p, { count: 60, seconds: 4 });
  const rows: Row[] = [];
  const label = dialect === 'pg' ? 'PostgreSQL' : 'SQLite';
  const within = (s: { p50: number; p99: number }) => s.p50 <= 20 && s.p99 <= 60;
  const row = (scenario: string, s: Awaited<ReturnType<typeof time>>, extra: Partial<Row> = {}): Row => ({
    scenario: `${label} scale: ${scenario}`,
    server: 'app',
    connections: 1,
    ...s,
    ...extra,
  });

  // The two with deep pages and every sort timed.
  const big = new Set(['patients', 'appointments']);
  for (const r of Object.values(RESOURCES).filter((x) => x.list)) {
    const base = `/v3/api/${r.name}?page_size=${PAGE}`;
    const offset = await time(base);
    rows.push(row(`${r.name} offset page 1`, offset, { target: 'p50 <= 20 ms, p99 <= 60 ms', pass: within(offset) }));
    const first = await time(`${base}&cursor=`);
    rows.push(row(`${r.name} cursor page 1`, first, { target: 'p50 <= 20 ms, p99 <= 60 ms', pass: within(first) }));
    if (!big.has(r.name)) continue;
    const range = r.name === 'patients' ? data.patients : data.appointments;
    const deepId = range.first + Math.floor(0.8 * (range.last - range.first));
    const deepCursor = encodeCursor(queryDigest(r.name, { q: [['page_size', String(PAGE)]], pageSize: PAGE }), [
      deepId,
    ]);
    const deep = await time(`${base}&cursor=${encodeURIComponent(deepCursor)}`);
    rows.push(
      row(`${r.name} cursor page at 80%`, deep, {
        compare: `${(deep.p50 / first.p50).toFixed(2)}x page 1`,
        target: 'p50 <= 2x page 1, p99 <= 60 ms',
        pass: deep.p50 <= 2 * Math.max(first.p50, 1) && deep.p99 <= 60,
      }),
    );
    for (const [field, f] of Object.entries(r.fields)) {
      if (!f.sortable) continue;
      for (const dir of ['asc', 'desc']) {
        const s = await time(`${base}&sort=${field}:${dir}&cursor=`);
        rows.push(
          row(`${r.name} sort=${field}:${dir} cursor page 1`, s, {
            target: 'p50 <= 20 ms, p99 <= 60 ms',
            pass: within(s),
          }),
        );
      }
    }
  }
  // The everyday questions this data can ask (issue 41; bench/everyday.ts asks all of them on PostgreSQL
  // of a clinic shaped like the report's): each request another practitioner, week, month or patient.
  // Appointment i starts on day i / 800 from 2012-01-01 (bench/scale-data.ts), so ids follow time.
  const day = (k: number) => new Date(Date.UTC(2012, 0, 1) + k * 86_400_000).toISOString().slice(0, 10);
  const lastDay = Math.floor(SCALE_APPOINTMENTS / 800);
  const someDay = (k: number) => Math.floor(lastDay * (0.1 + ((k * 0.137) % 0.85)));
  const practitioner = (k: number) =>
    data.practitioners.first + (k % (data.practitioners.last - data.practitioners.first + 1));
  const patient = (k: number) => data.patients.first + ((k * 7_919) % (data.patients.last - data.patients.first));
  const EVERYDAY: [string, (k: number) => string][] = [
    [
      "a practitioner's week in diary order",
      (k) =>
        `practitioner_id=eq:${practitioner(k)}&starts_at=between:${day(someDay(k))}T00:00:00,${day(someDay(k) + 6)}T23:59:59&sort=starts_at:asc&page_size=100`,
    ],
    [
      'a month of appointments',
      (k) => `starts_at=between:${day(someDay(k))}T00:00:00,${day(someDay(k) + 30)}T23:59:59`,
    ],
    [
      'cancelled in a month',
      (k) => `status=eq:cancelled&starts_at=between:${day(someDay(k))}T00:00:00,${day(someDay(k) + 30)}T23:59:59`,
    ],
    [
      "a patient's appointments in three years",
      (k) => `patient_id=eq:${patient(k)}&starts_at=gte:${day(someDay(k))}T00:00:00`,
    ],
    ['offset page 10,000 of 100', () => 'page=10000&page_size=100'],
  ];
  let k = 0;
  for (const [question, at] of EVERYDAY)
    for (const resource of question.startsWith('offset') ? ['patients', 'appointments'] : ['appointments']) {
      const next = () => `/v3/api/${resource}?${at(k++)}`;
      await sequential(t, next, { count: 5, seconds: 1 }); // the shape's statement prepared
      const s = await sequential(t, next, { count: 40, seconds: 4 });
      const name = question.startsWith('offset') ? `${resource} ${question}` : question;
      rows.push(row(`everyday: ${name}`, s, { target: 'p99 <= 50 ms', pass: s.p99 <= 50 }));
      say(`everyday: ${name}: p50 ${s.p50.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms`);
    }
  say(
    `${SCALE_PATIENTS.toLocaleString('en')} patients, ${SCALE_APPOINTMENTS.toLocaleString('en')} appointments: ${rows.filter((r) => r.pass === false).length} of ${rows.length} rows missed their target`,
  );
  if (dialect === 'pg' && process.argv[3] === 'plans') {
    const { planTable } = await import('./scale-plans');
    console.log(await planTable(url, data.accountId));
  }
  console.log(`ROWS ${JSON.stringify(rows)}`);
} finally {
  stopServers();
  server?.stop();
}
