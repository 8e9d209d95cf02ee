/**
 * The Citus row of `npm run bench` (issue 40: a clinic's requests are router queries). Starts a plain
 * throwaway PostgreSQL and a Citus cluster of three nodes (a coordinator and two workers, all on this
 * machine), loads the same patients into both (on Citus after `clinic citus distribute`: 32 shards by
 * clinic), and measures the app's GET /patients/{id} and a list page on each, in turn; the target is
 * Citus within 1.5× of plain PostgreSQL (req/s at least two thirds of it). Prints `ROWS <json>` for
 * bench/run.ts's table.
 */
import {
  cpuMs,
  getOk,
  load,
  sequential,
  SECONDS,
  startServer,
  stopServers,
  treeCpuMs,
  WARM_SECONDS,
  type Target,
} from './measure';
import { postmasterOf, startCitus, startPostgres, type PgServer } from './pg-data';
import type { Row } from './report';

const PATIENTS = Number(process.env.BENCH_CITUS_PATIENTS ?? 100_000);
const CONNECTIONS = 32;
const pct = (a: number, b: number) => `${Math.round((100 * a) / b)}%`;

const servers: PgServer[] = [];
try {
  const plain = startPostgres();
  servers.push(plain);
  const cluster = startCitus();
  servers.push(cluster);
  // The dialect is chosen at import time (db/dialect.ts): both URLs are PostgreSQL.
  process.env.DATABASE_URL = plain.url;
  const { openDb } = await import('../db/client');
  const { distribute } = await import('../db/citus');
  const { preparePgData } = await import('./pg-data');
  const { LAST_NAMES } = await import('./names');
  const migrated = await openDb(cluster.url, { migrate: true });
  await migrated.close();
  await distribute(cluster.url, 32);
  const targets: { name: string; t: Target; firstId: number; cpu: () => number[] }[] = [];
  for (const [name, server] of [
    ['PostgreSQL', plain],
    ['Citus', cluster],
  ] as const) {
    const data = await preparePgData(server.url, PATIENTS);
    const app = await startServer(`app (${name})`, 'app-server.ts', {
      DATABASE_URL: server.url,
      WEBHOOK_WORKER: 'off',
    });
    const postmasters = server.dataDirs.map(postmasterOf);
    targets.push({
      name,
      t: { port: app.port, headers: { host: data.host, authorization: `Bearer ${data.key}` } },
      firstId: data.firstId,
      // CPU so far of the app, then of each database server (the coordinator, then the workers).
      cpu: () => [cpuMs(app.child.pid), ...postmasters.map(treeCpuMs)],
    });
  }
  const listPath = `/v3/api/patients?last_name=eq:${LAST_NAMES[137]}&sort=first_name:asc&page_size=50`;
  for (const { name, t, firstId } of targets) {
    const one = await getOk<{ data: { id: number } }>(t, `/v3/api/patients/${firstId}`);
    if (one.data.id !== firstId) throw new Error(`${name}: GET /patients/${firstId} returned id ${one.data.id}`);
    const list = await getOk<{ data: unknown[] }>(t, listPath);
    if (list.data.length !== 50) throw new Error(`${name}: ${listPath} returned ${list.data.length} rows`);
  }
  const [pgT, citusT] = targets;
  const patient = (firstId: number) => () => `/v3/api/patients/${firstId + Math.floor(Math.random() * PATIENTS)}`;
  /** A load run, and where its CPU went: µs per request in the app and in each database server. */
  const run = async (label: string, target: (typeof targets)[number], path: () => string) => {
    console.log(`[bench] ${label}: ${CONNECTIONS} connections, ${WARM_SECONDS} s warm-up + ${SECONDS} s`);
    await load(target.t, {
      seconds: WARM_SECONDS,
      connections: CONNECTIONS,
      nextPath: path,
      label: `${label} (warm-up)`,
    });
    const before = target.cpu();
    const stats = await load(target.t, { seconds: SECONDS, connections: CONNECTIONS, nextPath: path, label });
    const spent = target.cpu().map((ms, i) => ms - before[i]);
    const perRequest = spent.map((ms) => Math.round((1000 * ms) / stats.requests));
    const where =
      perRequest.length > 2
        ? `app ${perRequest[0]}, coordinator ${perRequest[1]}, workers ${perRequest.slice(2).reduce((a, b) => a + b, 0)}`
        : `app ${perRequest[0]}, PostgreSQL ${perRequest[1]}`;
    // One request at a time too: the latency a router query adds (the coordinator's hop to the worker).
    const alone = await sequential(target.t, path, { count: 2000, seconds: 4 });
    return { stats, cpu: `CPU µs/request: ${where}; one at a time p50 ${alone.p50.toFixed(2)} ms` };
  };
  const onePg = await run('citus a. single read, PostgreSQL', pgT, patient(pgT.firstId));
  const oneCitus = await run('citus a. single read, Citus', citusT, patient(citusT.firstId));
  const listPg = await run('citus b. list, PostgreSQL', pgT, () => listPath);
  const listCitus = await run('citus b. list, Citus', citusT, () => listPath);
  type Run = Awaited<ReturnType<typeof run>>;
  /** A scenario's two rows: the app on Citus, judged against the app on plain PostgreSQL (its baseline). */
  const pair = (scenario: string, citus: Run, plain: Run): Row[] => [
    {
      scenario: `${scenario} (baseline: the app on plain PostgreSQL)`,
      server: 'app',
      connections: CONNECTIONS,
      ...citus.stats,
      compare: `${pct(citus.stats.rps, plain.stats.rps)} of plain PostgreSQL; ${citus.cpu}`,
      target: 'req/s >= 67% of plain PostgreSQL (within 1.5x)',
      pass: citus.stats.rps * 1.5 >= plain.stats.rps,
    },
    {
      scenario: `${scenario} (baseline: the app on plain PostgreSQL)`,
      server: 'baseline',
      connections: CONNECTIONS,
      ...plain.stats,
      compare: plain.cpu,
    },
  ];
  const rows = [
    ...pair('Citus a. GET /patients/{id}', oneCitus, onePg),
    ...pair('Citus b. last_name=eq, sort first_name, 50', listCitus, listPg),
  ];
  console.log(`ROWS ${JSON.stringify(rows)}`);
} finally {
  stopServers();
  for (const s of servers) s.stop();
}
