/**
 * CPU time a server spends per request, at a fixed request rate: what the ratio rows (p, h) measure,
 * without the noise of a load generator sharing the machine's two cores. The server's own CPU (its
 * processes' user + system time from /proc, the cluster's workers included) over the requests answered.
 *
 *   npx tsx bench/cpu.ts [rate=6000] [seconds=8]
 *
 * Rows: bare node:http; the app (one process, no log lines); the app as `npm start` boots it (its ping and
 * a patient). A tool for the hot path's work (decision 255), not a pass/fail row. CPU_ONLY=bare,app,served,patient
 * picks rows; CPU_APP_ENV and CPU_SERVED_ENV add environment; CPU_PROFILE and CPU_NODE_ARGS add node flags.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { compiledEnv, compileServer, startCompiled } from './compiled-server';
import { startServer, stopServers, type Target } from './measure';
import { LIFTED_LIMITS } from './limits';

const ROOT = path.join(import.meta.dirname, '..');
const DB_FILE = path.join(ROOT, 'data', 'bench', 'bench.db');
process.env.DATABASE_URL = DB_FILE;
const RATE = Number(process.argv[2] ?? 6000);
const SECONDS = Number(process.argv[3] ?? 8);
const TICK = 100; // clock ticks a second (USER_HZ)

/** User + system CPU seconds of `pid` and every process below it. */
function cpuOf(pid: number): number {
  let ticks = 0;
  const visit = (p: number) => {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
      for (const task of fs.readdirSync(`/proc/${p}/task`)) {
        for (const child of fs.readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').split(' ').filter(Boolean))
          visit(Number(child));
      }
    } catch {
      // gone
    }
  };
  visit(pid);
  return ticks / TICK;
}

async function perRequest(label: string, pid: number, t: Target, urlPath: string): Promise<void> {
  const run = (seconds: number) =>
    autocannon({
      url: `http://127.0.0.1:${t.port}${urlPath}`,
      connections: 32,
      duration: seconds,
      headers: t.headers,
      overallRate: RATE,
    });
  await run(3);
  const before = cpuOf(pid);
  const result = await run(SECONDS);
  const used = cpuOf(pid) - before;
  const bad = result.non2xx + result.errors + result.timeouts;
  // A fast 401 or 404 is not a result.
  if (bad > 0) throw new Error(`${label}: ${bad} of ${result.requests.total} requests failed`);
  const us = (used * 1e6) / result.requests.total;
  console.log(
    `${label.padEnd(44)} ${String(result.requests.total).padStart(7)} requests  ${us.toFixed(1).padStart(6)} µs CPU each  (${(used / SECONDS).toFixed(2)} cores)`,
  );
}

/** Ends a server and waits for it (a profile is written as it exits). */
const stop = (child: ChildProcess) =>
  new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

// CPU_APP_ENV="NAME=value …": more environment for the one-process app (REQUEST_LOG=off: what the log costs).
const envOf = (text = '') =>
  Object.fromEntries(
    text
      .split(' ')
      .filter(Boolean)
      .map((kv) => kv.split('=', 2) as [string, string]),
  );
const appEnv = envOf(process.env.CPU_APP_ENV);
// CPU_SERVED_ENV: the same for the server as booted by default (LOG_LEVEL=warn, WEB_CONCURRENCY=1, …).
const servedEnv = envOf(process.env.CPU_SERVED_ENV);

const { prepareData } = await import('./seed-data');
const data = await prepareData(DB_FILE, { fresh: false });
const headers = { host: data.host, authorization: `Bearer ${data.key}` };
const only = process.env.CPU_ONLY?.split(',');
const wants = (name: string) => !only || only.includes(name);
// CPU_PROFILE=<dir>: each server under --cpu-prof, its profile written there (for comparing where the time goes).
const prof = process.env.CPU_PROFILE;
// CPU_NODE_ARGS: more flags for each server's node (--perf-basic-prof, for `perf record -p`).
const nodeArgs = (name: string) => [
  ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${path.join(prof, name)}`] : []),
  ...(process.env.CPU_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
];
try {
  if (wants('bare')) {
    const bare = await startServer('bare', 'bare-server.ts', {}, { nodeArgs: nodeArgs('bare') });
    await perRequest('bare node:http', bare.child.pid!, { port: bare.port, headers }, '/v3/api/ping');
    await stop(bare.child);
  }
  if (wants('app')) {
    const app = await startServer(
      'app',
      'app-server.ts',
      { DATABASE_URL: DB_FILE, WEBHOOK_WORKER: 'off', ...appEnv },
      { nodeArgs: nodeArgs('app') },
    );
    await perRequest('app, 1 process, no log lines: ping', app.child.pid!, { port: app.port, headers }, '/v3/api/ping');
    await stop(app.child);
  }
  if (wants('served')) {
    compileServer(ROOT, () => {});
    const served = await startCompiled(
      ROOT,
      'served',
      {
        ...compiledEnv(DB_FILE),
        ...LIFTED_LIMITS,
        ...servedEnv,
      },
      { stdoutFile: path.join(ROOT, 'data', 'bench', 'app-cpu.log'), nodeArgs: nodeArgs('served') },
    );
    const t = { port: served.port, headers };
    await perRequest('as served by default: ping', served.child.pid!, t, '/v3/api/ping');
    if (wants('patient'))
      await perRequest('as served by default: patient', served.child.pid!, t, `/v3/api/patients/${data.firstId + 7}`);
    await stop(served.child);
  }
} finally {
  stopServers();
}
