/**
 * The everyday rows of `npm run bench` (issue 41; `tsx bench/everyday.ts`, PostgreSQL): a big clinic's
 * everyday questions (bench/everyday-data.ts), each asked 20+ times on one connection with values that
 * move (a different week, practitioner or month each time, as integrators ask), target p99 ≤ 50 ms; and
 * a practitioner's week at 8 connections, target ≥ 500 req/s with p99 ≤ 100 ms.
 * Prints `ROWS <json>` for bench/run.ts; `tsx bench/everyday.ts plans` prints each request's plans too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { keptPostgres } from './kept-postgres';
import { load, sequential, startServer, stopServers, type Target } from './measure';
import type { Row } from './report';

const ROOT = path.resolve(import.meta.dirname, '..');
const say = (msg: string) => console.log(`[everyday] ${msg}`);
const server = keptPostgres(ROOT, `everyday_${process.env.BENCH_EVERYDAY_SCALE ?? 1}`);
const DAY = 86_400_000;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);
const wall = (offsetDays: number) => `${day(offsetDays)}T00:00:00`;
const instant = (offsetDays: number) => `${day(offsetDays)}T00:00:00Z`;

try {
  fs.mkdirSync(path.join(ROOT, 'data', 'bench'), { recursive: true });
  process.env.DATABASE_URL = server.url;
  const { prepareEveryday } = await import('./everyday-data');
  const { RESOURCES } = await import('../server/resources');
  const data = await prepareEveryday(server.url);
  const app = await startServer('app (pg)', 'app-server.ts', {
    DATABASE_URL: server.url,
    WEBHOOK_WORKER: 'off',
    REQUEST_LOG: 'off',
    JOBS: 'off',
  });
  const t: Target = { port: app.port, headers: { host: data.host, authorization: `Bearer ${data.key}` } };
  let n = 0;
  /** Each request of a row asks about another practitioner, week or month: `at(k)` builds the k-th. */
  const p = (k: number) => data.practitionerId + (k % 100);
  const week = (k: number) => `between:${wall(-7 * (k % 100))},${day(-7 * (k % 100) + 6)}T23:59:59`;
  const ROWS: [string, (k: number) => string][] = [
    [
      "a practitioner's week in diary order",
      (k) => `appointments?practitioner_id=eq:${p(k)}&starts_at=${week(k)}&sort=starts_at:asc&page_size=100`,
    ],
    ['cancelled in the last 30 days', (k) => `appointments?status=eq:cancelled&starts_at=gte:${wall(-30 - (k % 5))}`],
    [
      'a month of appointments two years ago',
      (k) => `appointments?starts_at=between:${wall(-730 - 31 * (k % 6))},${wall(-700 - 31 * (k % 6))}`,
    ],
    [
      "a patient's appointments this year",
      () => `appointments?patient_id=eq:${data.patientId}&starts_at=gte:${wall(-365)}`,
    ],
    ['invoices of last month', (k) => `invoices?invoice_date=between:${day(-60 - (k % 5))},${day(-30 - (k % 5))}`],
    [
      'York addresses added in the last year',
      (k) => `addresses?city=eq:York&created_at=gte:${instant(-365 - (k % 5))}`,
    ],
    [
      'Bupa patients added in the last year',
      (k) => `patients?metadata[insurer]=eq:Bupa&created_at=gte:${instant(-365 - (k % 5))}`,
    ],
    ["last name contains o'n", () => `patients?last_name=contains:${encodeURIComponent("o'n")}`],
    ['last name contains son, by last name', () => 'patients?last_name=contains:son&sort=last_name'],
    ['first name contains ann', () => 'patients?first_name=contains:ann'],
    ['last name contains ødeg (non-ASCII)', () => `patients?last_name=contains:${encodeURIComponent('ødeg')}`],
    ['timeline tags, default page', () => 'patient_log_tags'],
    // Every order of the timeline's tags (the report's slowest generic plans), from the resource's declaration.
    ...Object.entries(RESOURCES.patient_log_tags.fields)
      .filter(([attribute, f]) => f.sortable && attribute !== 'id')
      .flatMap(([attribute]) =>
        ['asc', 'desc'].map((dir): [string, () => string] => [
          `timeline tags by ${attribute}, ${dir}`,
          () => `patient_log_tags?sort=${attribute}:${dir}`,
        ]),
      ),
    ['patients offset page 10,000 of 100', () => 'patients?page=10000&page_size=100'],
    ['appointments offset page 10,000 of 100', () => 'appointments?page=10000&page_size=100'],
  ];
  const rows: Row[] = [];
  for (const [scenario, at] of ROWS) {
    // Warm: the first requests of a shape build and cache its statement.
    await sequential(t, () => `/v3/api/${at(n++)}`, { count: 5, seconds: 1 });
    const s = await sequential(t, () => `/v3/api/${at(n++)}`, { count: 40, seconds: 4 });
    rows.push({
      scenario: `PostgreSQL everyday: ${scenario}`,
      server: 'app',
      connections: 1,
      ...s,
      target: 'p99 <= 50 ms',
      pass: s.p99 <= 50,
    });
    say(`${scenario}: p50 ${s.p50} ms, p99 ${s.p99} ms`);
  }
  // The diary under load, served as `npm start` serves it (server/serve.ts: WEB_CONCURRENCY processes).
  const served = await startServer('app (pg), as served', 'cluster-server.ts', {
    DATABASE_URL: server.url,
    JOBS: 'off',
  });
  const c: Target = { ...t, port: served.port };
  const diaryPath = () => `/v3/api/${ROWS[0][1](n++)}`;
  // Warm until steady: each new process prepares its statements on each of its connections, and 2 s
  // measured the first round 20–30% below the next ones.
  await load(c, { seconds: 5, connections: 8, nextPath: diaryPath, label: 'diary warm-up' });
  const diary = await load(c, { seconds: 10, connections: 8, nextPath: diaryPath, label: 'diary' });
  rows.push({
    scenario: "PostgreSQL everyday: a practitioner's week, 8 connections",
    server: 'app',
    connections: 8,
    ...diary,
    target: '>= 500 req/s, p99 <= 100 ms',
    pass: diary.rps >= 500 && diary.p99 <= 100,
  });
  say(`the diary at 8 connections: ${diary.rps} req/s, p99 ${diary.p99} ms`);
  say(`${rows.filter((r) => r.pass === false).length} of ${rows.length} rows missed their target`);
  console.log(`ROWS ${JSON.stringify(rows)}`);
} finally {
  stopServers();
  server.stop();
}
