/** A server entry file (bench/app-server.ts, support/paused-server.ts) run in its own node process. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const root = path.resolve(__dirname, '../../..');

export interface Spawned {
  child: ChildProcess;
  port: number;
}

/** Starts `entry` (relative to the repository) with `env` added and waits for its `LISTENING <port>`. */
export function spawnServer(entry: string, env: Record<string, string>): Promise<Spawned> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, entry)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${entry} did not start within 60 s`)), 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const port = /LISTENING (\d+)/.exec(out)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ child, port: Number(port) });
      }
    });
    child.on('exit', (code) => reject(new Error(`${entry} exited (${code}) before listening`)));
  });
}

/** Resolves once the process has exited (at once if it already has). */
export const exited = (s: Spawned) =>
  new Promise<void>((resolve) =>
    s.child.exitCode !== null || s.child.signalCode !== null ? resolve() : s.child.once('exit', () => resolve()),
  );
