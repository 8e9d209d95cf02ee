/** Starting the servers and measuring them: autocannon for load, a plain keep-alive client for latency. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';

export interface Server {
  name: string;
  port: number;
  child: ChildProcess;
}

const children = new Set<ChildProcess>();
// One keep-alive socket for the sequential client: it measures the server, not connection set-up.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * Runs bench/<file> in its own node process (`node --import tsx`: the same loader as `npx tsx`, without
 * the npx and tsx wrapper processes, so the pid we hold is the server itself) and waits for its port.
 */
export function startServer(
  name: string,
  file: string,
  env: Record<string, string>,
  opts: { stdoutFile?: string; nodeArgs?: string[] } = {},
): Promise<Server> {
  // With stdoutFile the server's logs go to a file, as a deployment's would, instead of through a pipe to us.
  const out = opts.stdoutFile ? fs.openSync(opts.stdoutFile, 'w') : 'pipe';
  const child = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), '--import', 'tsx', path.join(import.meta.dirname, file)],
    {
      env: { ...process.env, ...env },
      stdio: ['pipe', out, 'inherit'],
    },
  );
  track(child);
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`${name} server did not start within 120 s`)), 120_000);
    const seen = (chunk: string) => {
      text += chunk;
      const port = /LISTENING (\d+)/.exec(text)?.[1];
      if (port) {
        clearTimeout(timer);
        clearInterval(poll);
        resolve({ name, port: Number(port), child });
      }
    };
    const poll = opts.stdoutFile
      ? setInterval(() => seen(fs.readFileSync(opts.stdoutFile!, 'utf8').slice(text.length)), 100)
      : undefined;
    child.stdout?.on('data', (chunk: Buffer) => seen(chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      reject(new Error(`${name} server exited with code ${code} before listening:\n${text}`));
    });
  });
}

/** A server process stopServers() ends. */
export function track(child: ChildProcess): void {
  children.add(child);
  child.on('exit', () => children.delete(child));
}

/** Ends every server this process started (by pid). Safe to call more than once. */
export function stopServers(): void {
  for (const child of children) {
    child.stdin?.destroy();
    child.kill('SIGTERM');
  }
  agent.destroy();
}

export interface Target {
  port: number;
  headers: Record<string, string>;
}

type JsonResponse = { status: number; body: unknown; ms: number };

/** One request with a JSON answer, timed; `fresh` opens its own connection instead of the keep-alive pool. */
export function requestJson(
  t: Target,
  method: string,
  urlPath: string,
  opts: { body?: unknown; fresh?: boolean } = {},
): Promise<JsonResponse> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers =
    payload === undefined
      ? t.headers
      : { ...t.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) };
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: t.port, method, path: urlPath, headers, agent: opts.fresh ? false : agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          const text = Buffer.concat(chunks).toString();
          try {
            // A 204 has no body.
            resolve({
              status: res.statusCode!,
              body: text === '' && res.statusCode === 204 ? null : JSON.parse(text),
              ms,
            });
          } catch {
            reject(new Error(`${method} ${urlPath}: ${res.statusCode} non-JSON body ${text.slice(0, 200)}`));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export const getJson = (t: Target, urlPath: string) => requestJson(t, 'GET', urlPath);

/** A POST with a JSON body on a fresh connection (a storm of these must not queue behind a pool). */
export const postJson = (t: Target, urlPath: string, body: unknown) =>
  requestJson(t, 'POST', urlPath, { body, fresh: true });

/** GET that must answer 2xx; returns the parsed body. */
export async function getOk<T = Record<string, unknown>>(t: Target, urlPath: string): Promise<T> {
  const res = await getJson(t, urlPath);
  if (res.status < 200 || res.status > 299)
    throw new Error(`GET ${urlPath} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body as T;
}

export interface Stats {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
}

/**
 * `connections` concurrent keep-alive clients for `seconds`. `nextPath` is called per request, so
 * every request can hit a different row. Any non-2xx, error or timeout fails the run: a fast 404 or
 * 401 is not a result.
 */
export async function load(
  t: Target,
  opts: {
    seconds: number;
    connections: number;
    nextPath: () => string;
    label: string;
    method?: 'GET' | 'POST';
    body?: () => string;
  },
): Promise<Stats> {
  const result = await autocannon({
    url: `http://127.0.0.1:${t.port}`,
    connections: opts.connections,
    duration: opts.seconds,
    headers: t.headers,
    // Slow endpoints at 32 connections see multi-second stragglers (even a bare node:http server that
    // spends 10 ms per request does); record them in p99 instead of dropping them at the 10 s default.
    timeout: 60,
    requests: [
      {
        method: opts.method ?? 'GET',
        setupRequest: (req) => ({
          ...req,
          path: opts.nextPath(),
          ...(opts.body ? { body: opts.body(), headers: { ...req.headers, 'content-type': 'application/json' } } : {}),
        }),
      },
    ],
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) {
    throw new Error(
      `${opts.label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts of ${result.requests.total} requests`,
    );
  }
  if (result.requests.total === 0) throw new Error(`${opts.label}: no request completed`);
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

/**
 * One request at a time, timed on our side with sub-millisecond resolution (autocannon's histogram
 * records whole milliseconds). Stops after `count` requests or `seconds`, whichever comes first.
 */
/** One request at a time: `urlPath` fixed, or made afresh for each request. */
export async function sequential(
  t: Target,
  urlPath: string | (() => string),
  opts: { count: number; seconds: number },
): Promise<Stats> {
  const times: number[] = [];
  const deadline = Date.now() + opts.seconds * 1000;
  while (times.length < opts.count && (times.length < 10 || Date.now() < deadline)) {
    const res = await getJson(t, typeof urlPath === 'string' ? urlPath : urlPath());
    if (res.status < 200 || res.status > 299)
      throw new Error(`GET ${String(urlPath)} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    times.push(res.ms);
  }
  const total = times.reduce((a, b) => a + b, 0);
  return { requests: times.length, rps: (times.length * 1000) / total, ...percentiles(times) };
}

/** p50/p99 of client-side timings. */
export function percentiles(times: number[]): { p50: number; p99: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return { p50: pct(50), p99: pct(99) };
}

/** BENCH_SECONDS (default 10) per measured run, after a warm-up of a third of it (1 to 3 s). */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const WARM_SECONDS = Math.min(3, Math.max(1, Math.round(SECONDS / 3)));
if (!(SECONDS > 0)) throw new Error(`BENCH_SECONDS must be a positive number (got ${process.env.BENCH_SECONDS})`);

/** A short warm-up (JIT, page cache, key cache) and then the measured run. */
export async function measure(label: string, t: Target, connections: number, nextPath: () => string): Promise<Stats> {
  console.log(`[bench] ${label}: ${connections} connections, ${WARM_SECONDS} s warm-up + ${SECONDS} s`);
  await load(t, { seconds: WARM_SECONDS, connections, nextPath, label: `${label} (warm-up)` });
  return load(t, { seconds: SECONDS, connections, nextPath, label });
}

const CLOCK_TICKS = 100;

/** A process's CPU time (user + system) so far, in ms; NaN where /proc is not there. */
export function cpuMs(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/** The CPU time of a process and its children alive now (a PostgreSQL server: its postmaster and backends), in ms. */
export function treeCpuMs(root: number): number {
  let total = cpuMs(root);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      if (ppid === root) total += cpuMs(Number(entry)) || 0;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}
