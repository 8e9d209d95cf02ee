/**
 * The real API server for the sweep row (bench/sweep.ts): as bench/app-server.ts, with the scheduler not
 * started (JOBS=off) and ticked on demand instead, in this same process as a deployment runs it. A line
 * `sweep` on stdin ticks the app's own scheduler until `sweep.events` stops asking to run again (the bench
 * stands in for the 30 s poll between runs) and prints `SWEPT <ms> <runs>`. BENCH_SWEEP_PACE (JSON) overrides
 * the sweep's pace, to compare paces without editing the default.
 */
import type { AddressInfo } from 'node:net';
import readline from 'node:readline';
import { createApp } from '../server/app';
import { loadEnv } from '../server/env';
import { setSweepPace } from '../server/scheduler/sweep-batches';
import { LIFTED_LIMITS } from './limits';

// BENCH_SWEEP_PACE='{"batchMs":25,"pauseFactor":4}' tries a pace against the default (server/scheduler/sweep-batches.ts).
if (process.env.BENCH_SWEEP_PACE) setSweepPace(JSON.parse(process.env.BENCH_SWEEP_PACE));

const app = await createApp(
  loadEnv({
    ...process.env,
    JOBS: 'off',
    ...LIFTED_LIMITS,
    LOG_LEVEL: 'silent',
  }),
);

async function sweep() {
  const started = performance.now();
  let runs = 0;
  for (;;) {
    const ran = await app.jobs.tick();
    if (!ran.includes('sweep.events')) break;
    runs++;
  }
  process.stdout.write(`SWEPT ${(performance.now() - started).toFixed(0)} ${runs}\n`);
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'sweep') void sweep().catch((err) => process.stdout.write(`SWEEP_FAILED ${String(err)}\n`));
});
app.server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`LISTENING ${(app.server.address() as AddressInfo).port}\n`),
);
process.stdin.on('close', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
