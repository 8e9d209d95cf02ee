/**
 * The compiled build (`npm run build` → scripts/build-server.mjs): built here into a folder of the
 * test's own, the command line and the server run from it with plain node, and the launchers
 * (bin/clinic.mjs for `npx clinic` / `npm run clinic`, scripts/start.mjs for `npm start`) never run a
 * bundle older than its sources.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from './helpers';
import { root } from './support/spawn';

const run = promisify(execFile);
/** Building and starting processes on a loaded 2-core machine: generous, and nothing depends on speed. */
const BUDGET_MS = 180_000;
// Inside the project, so the bundles resolve node_modules as dist/ does.
const outdir = path.join(root, 'node_modules', '.cache', `clinic-dist-test-${process.pid}`);
const doctored = `${outdir}-doctored`;

async function node(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: root, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  const built = await node(['scripts/build-server.mjs', '--outdir', outdir]);
  expect(built.code, built.stderr).toBe(0);
}, BUDGET_MS);
afterAll(() => {
  fs.rmSync(outdir, { recursive: true, force: true });
  fs.rmSync(doctored, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

const get = (port: number, p: string) =>
  new Promise<{ status: number; body: string } | null>((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: p, agent: false }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', () => resolve(null));
  });

describe('compiled server and command line', { timeout: BUDGET_MS }, () => {
  it('the build holds both entries with source maps and lists its sources', () => {
    for (const f of ['cli.js', 'server.js', 'cli.js.map', 'server.js.map'])
      expect(fs.existsSync(path.join(outdir, f)), f).toBe(true);
    const build = JSON.parse(fs.readFileSync(path.join(outdir, 'build.json'), 'utf8'));
    expect(build.inputs).toEqual(
      expect.arrayContaining(['server/main.ts', 'server/cli/main.ts', 'server/cli/backup.ts', 'db/client.ts']),
    );
    // Packages count through npm's record of the install, not file by file.
    expect(build.inputs.filter((f: string) => f.includes('node_modules'))).toEqual(
      fs.existsSync(path.join(root, 'node_modules/.package-lock.json')) ? ['node_modules/.package-lock.json'] : [],
    );
  });

  it('clinic help answers from the bundle, with the backup commands', async () => {
    const help = await node([path.join(outdir, 'cli.js'), 'help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe('');
    expect(help.stderr).toContain('clinic key list --clinic NAME --region REGION');
    expect(help.stderr).toContain('clinic backup --to FILE');
    const bad = await node([path.join(outdir, 'cli.js'), 'key', 'list', '--clinic']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^clinic: .*\(clinic help lists the commands\)\n$/);
  });

  it('the bundled command line migrates and reads the database (migrations found from the bundle)', async () => {
    const name = uniqueName('compiled');
    const tenant = ['--clinic', name, '--region', 'neptune'];
    const cli = (...args: string[]) => node([path.join(outdir, 'cli.js'), ...args]);
    expect(
      (
        await cli(
          'account',
          'create',
          ...tenant,
          '--name',
          'Compiled Physio',
          '--timezone',
          'Europe/London',
          '--currency',
          'GBP',
        )
      ).code,
    ).toBe(0);
    const created = await cli('key', 'create', ...tenant, '--name', 'From dist', '--access', 'read_only');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^cpk_[0-9A-Za-z]{38}\n$/);
    const listed = JSON.parse((await cli('key', 'list', ...tenant)).stdout);
    expect(listed).toEqual([
      expect.objectContaining({ name: 'From dist', access: 'read_only', start: created.stdout.slice(0, 8) }),
    ]);
  });

  it('the bundled server (through scripts/start.mjs) answers /healthz and /readyz', async () => {
    const port = await freePort();
    // Next's development mode needs no production build of the portal; the server code is the bundle either way.
    const child = spawn(process.execPath, ['scripts/start.mjs', '--dev'], {
      cwd: root,
      env: {
        ...process.env,
        CLINIC_DIST_DIR: outdir,
        PORT: String(port),
        NODE_ENV: 'development',
        WEBHOOK_WORKER: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const gone = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      // Listening is announced once the server answers; its line names the port.
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', () => output.includes(`listening on http://localhost:${port}`) && resolve());
        void gone.then(() => reject(new Error(`the compiled server exited:\n${output}`)));
      });
      expect(await get(port, '/healthz')).toEqual({ status: 200, body: '{"status":"ok"}' });
      // Ready means the migrations journal was found next to the sources and the database has them all.
      expect(await get(port, '/readyz')).toEqual({ status: 200, body: '{"status":"ok"}' });
    } finally {
      child.kill('SIGTERM');
      await gone;
    }
  });

  it('a bundle older than any of its sources never runs: the command line uses tsx, npm start refuses', async () => {
    fs.rmSync(doctored, { recursive: true, force: true });
    fs.mkdirSync(doctored);
    const build = JSON.parse(fs.readFileSync(path.join(outdir, 'build.json'), 'utf8'));
    // Bundles that say so if they run.
    fs.writeFileSync(path.join(doctored, 'cli.js'), 'console.log("the bundle ran");\n');
    fs.writeFileSync(path.join(doctored, 'server.js'), 'console.log("the bundle ran");\n');
    const env = { CLINIC_DIST_DIR: doctored };

    fs.writeFileSync(
      path.join(doctored, 'build.json'),
      JSON.stringify({ ...build, startedAt: Date.now() + 24 * 3600_000 }),
    );
    expect((await node(['bin/clinic.mjs', 'help'], env)).stdout).toBe('the bundle ran\n');
    expect((await node(['scripts/start.mjs'], env)).stdout).toBe('the bundle ran\n');

    // Built before its sources were last written: stale.
    fs.writeFileSync(path.join(doctored, 'build.json'), JSON.stringify({ ...build, startedAt: 0 }));
    const help = await node(['bin/clinic.mjs', 'help'], env);
    expect(help).toMatchObject({ code: 0, stdout: '' });
    expect(help.stderr).toContain('clinic backup --to FILE');
    const start = await node(['scripts/start.mjs'], env);
    expect(start.code).toBe(1);
    expect(start.stdout).toBe('');
    expect(start.stderr).toMatch(/^Not starting: \S+ changed after the last build \(npm run build\)\.\n$/);

    // A source the build used that is gone: stale too. No build at all: the same.
    fs.writeFileSync(
      path.join(doctored, 'build.json'),
      JSON.stringify({
        ...build,
        startedAt: Date.now() + 24 * 3600_000,
        inputs: [...build.inputs, 'server/removed.ts'],
      }),
    );
    expect((await node(['scripts/start.mjs'], env)).stderr).toContain('server/removed.ts changed after the last build');
    fs.rmSync(path.join(doctored, 'build.json'));
    expect(await node(['scripts/start.mjs'], env)).toMatchObject({ code: 1, stdout: '' });
    expect((await node(['bin/clinic.mjs', 'help'], env)).stderr).toContain('clinic backup --to FILE');
  });
});
