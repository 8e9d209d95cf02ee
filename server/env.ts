import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { REGIONS } from '../db/schema/accounts';

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

const positiveInt = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

const flag = (fallback: 'on' | 'off' = 'off') =>
  z
    .enum(['1', 'true', 'yes', 'on', '0', 'false', 'no', 'off', ''])
    .default(fallback)
    .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const secretsKey = z
  .string()
  .refine(
    (v) => /^[A-Za-z0-9+/]+={0,2}$/.test(v) && Buffer.from(v, 'base64').length === 32,
    'must be the base64 of 32 bytes (openssl rand -base64 32)',
  )
  .optional();

export const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .min(1)
    .default('data/clinic.db')
    .refine((v) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(v) || /^postgres(ql)?:\/\//.test(v), {
      message: 'must be a SQLite file path (optionally file:-prefixed) or a postgres:// / postgresql:// URL',
    }),
  /** PostgreSQL connections per server process (each of WEB_CONCURRENCY processes has its own pool). */
  DATABASE_POOL_SIZE: positiveInt(10),
  /**
   * `transaction`: a pooler in transaction mode (PgBouncer) stands between the app and PostgreSQL, so no
   * session state may be relied on: statements go unnamed and no statement_timeout startup parameter is
   * sent (PgBouncer refuses it; set the timeout on the database role instead: docs/operations.md, production).
   */
  DATABASE_POOLER: z.enum(['none', 'transaction']).default('none'),
  /**
   * SQLite: how long a write waits for another process's write transaction (several server processes, or
   * the CLI beside the server, share the file) before the request is answered 503 request_timeout.
   */
  SQLITE_BUSY_TIMEOUT_MS: positiveInt(5000),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  SERVICE_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, 'must be a host name such as example.com')
    .default('localhost'),
  /** The regions this deployment serves (one deployment per region: data residency); a host of another is 421. */
  SERVICE_REGIONS: z
    .string()
    .default(REGIONS.join(','))
    .transform((v) =>
      v
        .split(',')
        .map((r) => r.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.enum(REGIONS), { message: `must be regions among ${REGIONS.join(', ')}, comma-separated` })
        .min(1, 'must name at least one region'),
    ),
  /**
   * Where member emails (set-up and password-reset links) are sent: smtp://user:pass@host:port or
   * smtps://...; unset, the portal shows each link once for an admin to hand over (docs/portal.md, "Staff accounts").
   */
  SMTP_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  /** The From of those emails. */
  MAIL_FROM: z.string().min(3).default('Clinic API <no-reply@localhost>'),
  /**
   * How the clinics' addresses start where no request says it (links the CLI prints): https, or http on
   * SERVICE_DOMAIN=localhost (with PORT).
   */
  PUBLIC_SCHEME: z.enum(['http', 'https']).optional(),
  RATE_LIMIT_REST_PER_MINUTE: positiveInt(120),
  RATE_LIMIT_MCP_PER_MINUTE: positiveInt(120),
  RATE_LIMIT_UNAUTH_PER_MINUTE: positiveInt(2),
  /** Reads of the public documents (the OpenAPI document, the changelog) per minute per address. */
  RATE_LIMIT_DOCS_PER_MINUTE: positiveInt(60),
  /**
   * How many proxies in front of the server append to X-Forwarded-For (0: none, headers ignored). The
   * client is the entry that many hops from the right, as Express's numeric `trust proxy`; on/true/yes
   * mean 1.
   */
  TRUST_PROXY: z
    .string()
    .default('off')
    .transform((v) =>
      ['', '0', 'false', 'no', 'off'].includes(v)
        ? 0
        : ['1', 'true', 'yes', 'on'].includes(v)
          ? 1
          : /^\d+$/.test(v)
            ? Number(v)
            : NaN,
    )
    .pipe(
      z.number({ message: 'must be off, on, or the number of proxies in front of the server' }).int().min(0).max(10),
    ),
  /** Secret that signs pagination cursors; when unset, one is generated once and kept in the database. */
  CURSOR_SECRET: z.string().min(16).optional(),
  MAX_BODY_BYTES: positiveInt(1_048_576),
  /** Largest file accepted by POST /files. */
  FILE_MAX_BYTES: positiveInt(25 * 1024 * 1024),
  /** Where the local-disk file store keeps uploaded bytes. */
  FILES_DIR: z.string().min(1).default('data/files'),
  /** Where uploaded bytes live: disk (under FILES_DIR, one machine) or database (shared by every instance). */
  FILES_STORE: z.enum(['disk', 'database']).default('disk'),
  /** Every API request is answered by then: a JSON 503 request_timeout if the work is still running. */
  REQUEST_TIMEOUT_MS: positiveInt(30_000),
  /** The portal's request log (every REST request of a known clinic, kept 90 days); off: none is kept. */
  REQUEST_LOG: flag('on'),
  /** Webhook delivery: the receiver must answer 2xx within this... */
  WEBHOOK_TIMEOUT_MS: positiveInt(15_000),
  /** ...retried after these delays (seconds; the first is before the first attempt)... */
  WEBHOOK_RETRY_DELAYS: z
    .string()
    .refine(
      (v) => v.split(',').every((s) => /^\s*\d+(\.\d+)?\s*$/.test(s)),
      'must be seconds, comma-separated (e.g. 0,5,300)',
    )
    .default('0,5,300,1800,7200,18000,36000,36000')
    .transform((v) => v.split(',').map(Number)),
  /** ...and an endpoint whose deliveries all failed for this long is disabled (seconds, or 30m, 12h, 5d). */
  WEBHOOK_DISABLE_AFTER: z
    .string()
    .regex(/^\d+[smhd]?$/, 'must be seconds or a number with s, m, h or d (e.g. 5d)')
    .default('5d')
    .transform((v) => Number.parseInt(v, 10) * UNIT_MS[v.match(/[smhd]$/)?.[0] ?? 's']),
  /** The delivery worker runs inside the server (off: run `clinic worker` on its own). */
  WEBHOOK_WORKER: flag('on'),
  /** The periodic jobs (sweeps, clinic jobs) in this process; a lease in the database lets one process run each. */
  JOBS: flag('on'),
  /** Development and tests only: allow http and loopback/private webhook targets. */
  WEBHOOKS_ALLOW_PRIVATE: flag(),
  /** Key (base64 of 32 bytes) that encrypts stored webhook signing secrets; generated and kept in the database when unset. */
  WEBHOOK_SECRETS_KEY: secretsKey,
  /** The older name of WEBHOOK_SECRETS_KEY, still read. */
  SECRETS_KEY: secretsKey,
  /** A portal session ends after this long without a request... */
  SESSION_IDLE_MINUTES: positiveInt(120),
  /** ...and this long after sign-in, whatever happens. */
  SESSION_MAX_HOURS: positiveInt(12),
  /** Server processes sharing the port (node:cluster); default: one per CPU. 1 runs a single process. */
  WEB_CONCURRENCY: positiveInt(availableParallelism()),
  /** On SIGTERM, in-flight requests get this long to finish before their connections are closed. */
  SHUTDOWN_TIMEOUT_MS: positiveInt(10_000),
  /** Prometheus metrics on a listener of their own (GET /metrics); unset: off. 0 picks a free port. */
  METRICS_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(65535).optional()),
  /** Where the metrics listener binds: loopback unless said otherwise (it is not for the internet). */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * The share of successful reads (GET/HEAD < 400) given a stdout line at LOG_LEVEL=info, 0 to 1; error
   * answers and writes always get one. 0.1 (one in ten) unless set; 1 gives every request its line: see
   * docs/operations.md, "Log lines and sampling".
   */
  LOG_SAMPLE_RATE: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number({ message: 'must be a number from 0 to 1' })
      .min(0, 'must be a number from 0 to 1')
      .max(1, 'must be a number from 0 to 1')
      .default(0.1),
  ),
});

export type Env = z.infer<typeof envSchema>;

/** PostgreSQL's statement timeout: a second below the request timeout (at least a second). */
export const statementTimeoutFor = (env: Pick<Env, 'REQUEST_TIMEOUT_MS'>) =>
  Math.max(1000, env.REQUEST_TIMEOUT_MS - 1000);

/** Reads and validates the environment; on a bad value prints which variable and why, and exits. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

export class ConfigError extends Error {}
