/**
 * Scenario s: how long an operator waits. The server and command line are compiled as `npm run build`
 * does (bench/compiled-server.ts) and started through the same
 * launchers as `npm start` and `npx clinic`, five times each; the rows give the median and the slowest.
 * A bundle older than its sources would not run (the command line would fall back to tsx), so the
 * bench checks it is current before and after, and rebuilds once if a source changed meanwhile.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { compiledEnv, compileServer, startCompiled } from './compiled-server';
import type { Row } from './report';

const RUNS = 5;

interface Timing {
  median: number;
  max: number;
  all: number[];
}

const timing = (ms: number[]): Timing => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1], all: ms };
};

/** Wall time of one command, from spawn to exit; a non-zero exit fails the bench. */
function timeCommand(root: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code === 0) resolve(ms);
      else reject(new Error(`node ${args.join(' ')} exited ${code}: ${err.slice(0, 500)}`));
    });
  });
}

/** From spawn to the first 200 from /healthz, polled every 5 ms; then the server is stopped and awaited. */
async function timeServerReady(root: string, env: NodeJS.ProcessEnv): Promise<number> {
  const server = await startCompiled(root, 's. server start', env, { pollMs: 5 });
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
  return server.readyMs;
}

async function isCurrent(root: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  process.env.CLINIC_DIST_DIR = env.CLINIC_DIST_DIR;
  const { compiled } = (await import(path.join(root, 'scripts', 'compiled.mjs'))) as {
    compiled: (e: string) => { url?: string };
  };
  return Boolean(compiled('cli').url && compiled('server').url);
}

export async function startupRows(root: string, dbFile: string, say: (msg: string) => void): Promise<Row[]> {
  const env: NodeJS.ProcessEnv = {
    ...compiledEnv(dbFile),
    LOG_LEVEL: 'warn',
    WEB_CONCURRENCY: '1',
    WEBHOOK_WORKER: 'off',
    JOBS: 'off',
  };
  for (let attempt = 1; ; attempt++) {
    compileServer(root, (msg) => say(`s. ${msg}`));
    if (!(await isCurrent(root, env))) throw new Error('s: the fresh build is already older than its sources');
    say(`s. clinic help, clinic key list and server start, ${RUNS} times each`);
    const help: number[] = [];
    const keys: number[] = [];
    const ready: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      help.push(await timeCommand(root, ['bin/clinic.mjs', 'help'], env));
      keys.push(
        await timeCommand(root, ['bin/clinic.mjs', 'key', 'list', '--clinic', 'bench', '--region', 'neptune'], env),
      );
      ready.push(await timeServerReady(root, env));
    }
    if (!(await isCurrent(root, env))) {
      if (attempt < 2) continue;
      throw new Error('s: a source file changed during the runs twice (the command line would have run through tsx)');
    }
    const row = (scenario: string, t: Timing, limit: number): Row => ({
      scenario,
      server: 'app',
      connections: 1,
      rps: 1000 / t.median,
      p50: t.median,
      p99: t.max,
      compare: `median of ${RUNS}: ${t.all.map((ms) => Math.round(ms)).join(', ')} ms (p99 column: slowest)`,
      target: `median <= ${limit} ms`,
      pass: t.median <= limit,
    });
    return [
      row('s. clinic help (compiled, node bin/clinic.mjs)', timing(help), 300),
      row('s. clinic key list, bench db (compiled)', timing(keys), 500),
      row(
        's. server start (scripts/start.mjs, what npm start runs) until /healthz answers, SQLite, 1 process',
        timing(ready),
        1500,
      ),
    ];
  }
}
