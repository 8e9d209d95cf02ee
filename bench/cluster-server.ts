/**
 * `npm start`'s process model (server/serve.ts: WEB_CONCURRENCY processes sharing the port) without
 * Next, rate limits lifted and logging off like bench/app-server.ts unless BENCH_LOG_LEVEL names a level (the
 * default-configuration rows, scenario h). Prints `LISTENING <port>`.
 */
import { loadEnv } from '../server/env';
import { serve } from '../server/serve';
import { LIFTED_LIMITS } from './limits';

const env = loadEnv({
  ...process.env,
  ...LIFTED_LIMITS,
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
  PORT: '0',
  HOST: '127.0.0.1',
});
await serve(env, { listening: (port) => process.stdout.write(`LISTENING ${port}\n`) });
process.stdin.on('close', () => process.kill(process.pid, 'SIGTERM')).resume();
