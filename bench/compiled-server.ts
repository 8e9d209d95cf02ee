/**
 * The server as `npm start` runs it: the portal built (`next build`, once) and the server compiled as
 * `npm run build` does (scripts/build-server.mjs, into a folder of the bench's own), started through
 * scripts/start.mjs. Scenarios s (start-up), h (the server as booted by default) and bench/profile.ts use it.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { track, type Server } from './measure';

export const BENCH_DIST = path.join('node_modules', '.cache', 'clinic-bench-dist');

/** Builds the portal if it has no production build, and compiles the server into BENCH_DIST. */
export function compileServer(root: string, say: (msg: string) => void): void {
  if (!fs.existsSync(path.join(root, '.next', 'BUILD_ID'))) {
    say('no production build of the portal (.next): next build');
    execFileSync(process.execPath, [path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
      cwd: root,
      stdio: 'ignore',
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
  }
  say(`compiling the server into ${BENCH_DIST}`);
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--outdir', BENCH_DIST], { cwd: root, stdio: 'inherit' });
}

/** The environment of the compiled server and command line: the bench's build, production mode. */
export const compiledEnv = (dbFile: string): NodeJS.ProcessEnv => ({
  ...process.env,
  CLINIC_DIST_DIR: BENCH_DIST,
  DATABASE_URL: dbFile,
  NODE_ENV: 'production',
  NEXT_TELEMETRY_DISABLED: '1',
});

/** A port free now (a child's API or metrics listener). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });

export const healthz = (port: number) =>
  new Promise<boolean>((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
  });

/**
 * scripts/start.mjs on a free port with `env` (its stdout to `stdoutFile`, as a deployment's logs go to a
 * file; else dropped), resolved once /healthz answers, polled every `pollMs`; `readyMs` is the time from
 * spawn to that answer. `nodeArgs` go before the script (--cpu-prof).
 */
export async function startCompiled(
  root: string,
  name: string,
  env: NodeJS.ProcessEnv,
  opts: { stdoutFile?: string; nodeArgs?: string[]; pollMs?: number } = {},
): Promise<Server & { readyMs: number }> {
  const port = await freePort();
  const out = opts.stdoutFile ? fs.openSync(opts.stdoutFile, 'w') : 'ignore';
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), 'scripts/start.mjs'], {
    cwd: root,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', out, 'pipe'],
  });
  if (typeof out === 'number') fs.closeSync(out);
  track(child);
  let err = '';
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  let gone = false;
  child.on('exit', () => (gone = true));
  const deadline = Date.now() + 120_000;
  while (!(await healthz(port))) {
    if (gone) throw new Error(`${name}: the compiled server exited before answering /healthz: ${err.slice(0, 500)}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`${name}: no answer from /healthz within 120 s`);
    }
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 20));
  }
  return { name, port, child, readyMs: Number(process.hrtime.bigint() - started) / 1e6 };
}
