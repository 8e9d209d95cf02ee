/**
 * `npm run bench:profile [-- ping|read]`: the compiled server as `npm start` boots it (info logging to a
 * file, the request log, the webhook worker and jobs), in one process (WEB_CONCURRENCY=1: one profile)
 * with only the rate limits lifted, run under `--cpu-prof` while autocannon loads GET /v3/api/ping (or
 * GET /patients/{id}); then the profile summed by where the code lives, by function, and for our own
 * functions with what they call. Writes
 * bench/profiles/<what>.cpuprofile (open it in Chrome DevTools' Performance panel or speedscope.app
 * for the flame graph) and bench/profiles/<what>.md.
 */
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BENCH_DIST, compiledEnv, compileServer, startCompiled } from './compiled-server';
import { load, stopServers, type Target } from './measure';
import { LIFTED_LIMITS } from './limits';

const ROOT = path.resolve(import.meta.dirname, '..');
const DB_FILE = path.join(ROOT, 'data', 'bench', 'bench.db');
process.env.DATABASE_URL = DB_FILE;
const OUT = path.join(import.meta.dirname, 'profiles');
const what = process.argv[2] === 'read' ? 'read' : 'ping';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: our folders by name, a package by name, else node's own or the engine's. */
function placeOf(url: string): string {
  if (!url) return '(engine: gc, idle, program)';
  const rel = url.replace(/^file:\/\//, '').replace(`${ROOT}/`, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(rel);
  if (pkg) return pkg[1];
  return rel.startsWith('node:') ? rel.slice(5) : rel;
}

/** Frames in the bundle, moved to the TypeScript file and line they came from (its linked source map). */
function unbundle(p: Profile): void {
  const maps = new Map<string, SourceMap | null>();
  for (const { callFrame: f } of p.nodes) {
    if (!f.url.startsWith('file://') || !f.url.includes(BENCH_DIST)) continue;
    if (!maps.has(f.url)) {
      const file = fileURLToPath(f.url) + '.map';
      maps.set(f.url, fs.existsSync(file) ? new SourceMap(JSON.parse(fs.readFileSync(file, 'utf8'))) : null);
    }
    const entry = maps.get(f.url)?.findEntry(f.lineNumber, f.columnNumber);
    if (!entry || !('originalSource' in entry)) continue;
    f.url = pathToFileURL(path.resolve(path.dirname(fileURLToPath(f.url)), entry.originalSource)).href;
    f.lineNumber = entry.originalLine;
  }
}

/** Self time per function and per place, in ms. */
function summarise(p: Profile): string {
  unbundle(p);
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  const fns = new Map<string, number>();
  const places = new Map<string, number>();
  for (const [id, ms] of self) {
    const f = byId.get(id)!.callFrame;
    const place = placeOf(f.url);
    add(places, place, ms);
    add(fns, `${f.functionName || '(anonymous)'} — ${place}:${f.lineNumber + 1}`, ms);
  }
  // Time in a function and in what it called, for our own code: where a request's time goes, step by step.
  const inclusive = new Map<string, number>();
  const keyOf = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} — ${placeOf(n.callFrame.url)}`;
  const walk = (n: ProfileNode, open: Set<string>): number => {
    const key = keyOf(n);
    const ours = /^(server|db)\//.test(placeOf(n.callFrame.url)) && !open.has(key);
    if (ours) open.add(key);
    let sum = self.get(n.id) ?? 0;
    for (const c of n.children ?? []) sum += walk(byId.get(c)!, open);
    if (ours) {
      open.delete(key);
      add(inclusive, key, sum);
    }
    return sum;
  };
  walk(p.nodes[0], new Set());
  const rows = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, ms]) => `| ${k.replaceAll('|', '\\|')} | ${ms.toFixed(0)} | ${((100 * ms) / total).toFixed(1)}% |`)
      .join('\n');
  return [
    `Self time of ${total.toFixed(0)} ms sampled over ${SECONDS} s of load.`,
    '',
    '| where | ms | share |',
    '|---|---:|---:|',
    rows(places, 25),
    '',
    '| function (self) | ms | share |',
    '|---|---:|---:|',
    rows(fns, 40),
    '',
    '| our function (with what it calls) | ms | share |',
    '|---|---:|---:|',
    rows(inclusive, 40),
  ].join('\n');
}

async function main() {
  const { prepareData, BENCH_PATIENTS } = await import('./seed-data');
  const data = await prepareData(DB_FILE, { fresh: false });
  const profDir = path.join(ROOT, 'data', 'bench', 'prof');
  fs.rmSync(profDir, { recursive: true, force: true });
  compileServer(ROOT, (msg) => console.log(`[profile] ${msg}`));
  const server = await startCompiled(
    ROOT,
    'app under --cpu-prof',
    {
      ...compiledEnv(DB_FILE),
      WEB_CONCURRENCY: '1',
      ...LIFTED_LIMITS,
    },
    {
      stdoutFile: path.join(ROOT, 'data', 'bench', 'profile.log'),
      nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`],
    },
  );
  const t: Target = { port: server.port, headers: { host: data.host, authorization: `Bearer ${data.key}` } };
  const nextPath =
    what === 'read'
      ? () => `/v3/api/patients/${data.firstId + Math.floor(Math.random() * BENCH_PATIENTS)}`
      : () => '/v3/api/ping';
  await load(t, { seconds: 2, connections: 32, nextPath, label: `${what} (warm-up)` });
  const stats = await load(t, { seconds: SECONDS, connections: 32, nextPath, label: what });
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  stopServers();
  await exited;
  // The server's own profile: the largest file (a worker thread, pino's transport, writes one too).
  const files = fs.readdirSync(profDir).map((f) => path.join(profDir, f));
  const file = files.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
  fs.mkdirSync(OUT, { recursive: true });
  fs.copyFileSync(file, path.join(OUT, `${what}.cpuprofile`));
  const summary = summarise(JSON.parse(fs.readFileSync(file, 'utf8')) as Profile);
  const title = what === 'read' ? 'GET /v3/api/patients/{id}' : 'GET /v3/api/ping';
  fs.writeFileSync(
    path.join(OUT, `${what}.md`),
    `# ${title}, one process as booted by default\n\n${Math.round(stats.rps)} req/s at 32 connections under the profiler. ` +
      `The flame graph: open ${what}.cpuprofile in Chrome DevTools (Performance → Load profile) or speedscope.app.\n\n${summary}\n`,
  );
  console.log(summary);
}

main().catch((err) => {
  console.error(err);
  stopServers();
  process.exit(1);
});
