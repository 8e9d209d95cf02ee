/**
 * The `clinic` command as people run it (bin/clinic.mjs), on the bundle this run's global setup compiled
 * (global-setup.ts, into CLINIC_TEST_DIST): under a second a command, where compiling the TypeScript with
 * tsx in every new process took 3–4 s (cli.test.ts alone spent 106 s of the PostgreSQL suite in it). The
 * launcher still never runs a bundle older than its sources: it falls back to tsx, as for people.
 */
import { execFile, spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { root } from './spawn';

const run = promisify(execFile);
const launcher = path.join(root, 'bin/clinic.mjs');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The launcher's environment: the suite's own (its database) with `env` added, pointed at the run's bundle. */
function cliEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const dist = process.env.CLINIC_TEST_DIST;
  return { ...process.env, ...env, ...(dist ? { CLINIC_DIST_DIR: dist } : {}) };
}

/** Runs `clinic …args` to its end, on the Node that runs the suite; a failing command is its exit code, not a throw. */
export const clinic = (...args: string[]): Promise<CliResult> => clinicWith({}, ...args);

/** `clinic …args` with `env` added to the suite's environment. */
export async function clinicWith(env: Record<string, string | undefined>, ...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [launcher, ...args], { cwd: root, env: cliEnv(env) });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as CliResult;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Starts a long-running `clinic …args` (the webhook worker) and returns its process. */
export function spawnClinic(
  args: string[],
  env: Record<string, string | undefined>,
  stdio: StdioOptions,
): ChildProcess {
  return spawn(process.execPath, [launcher, ...args], { cwd: root, env: cliEnv(env), stdio });
}
