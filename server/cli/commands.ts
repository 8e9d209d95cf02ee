/**
 * The `clinic` commands that touch the database, loaded by server/cli/main.ts only when one is asked
 * for (so `clinic help` starts at once). Secrets go alone to stdout; everything else to stderr.
 */
import { allowedIpsInput, permissionsInput } from '../auth/key-permissions';
import { GROUP_NAMES } from '../auth/key-groups';
import { parseArgs } from 'node:util';
import { openDb, type DbHandle } from '../../db/client';
import {
  KeyError,
  createKey,
  listKeys,
  revokeKey,
  rotateKey,
  rotationGraceInput,
  EXPIRIES,
  ROTATION_GRACE_NAMES,
  type Expiry,
} from '../domain/api_keys';
import { AccountError, createAccount, findAccount } from '../domain/accounts';
import type { Actor } from '../events/record';
import { ConfigError, loadEnv, type Env } from '../env';
import type { Account } from '../context';
import { z } from 'zod';
import { ROLE_KEYS } from '../../db/schema';
import { ApiError } from '../errors';
import { CommandError, UsageError } from './usage';

// Imported by the commands that use them: a command loads only its own share of the app.
const seeding = async () => ({ ...(await import('../seed')), ...(await import('../files/db-store')) });
const webhooks = async () => ({
  ...(await import('../domain/webhooks')),
  ...(await import('../auth/secrets')),
  ...(await import('../webhooks/worker')),
});
const team = async () => ({
  ...(await import('../domain/team')),
  ...(await import('../auth/members')),
  ...(await import('../auth/passwords')),
  ...(await import('../auth/password-links')),
  ...(await import('../mail')),
});

/** A clinic's portal origin where no request says it (links the CLI prints or emails). */
export function clinicOrigin(env: Env, account: { subdomain: string; region: string }): string {
  const local = env.SERVICE_DOMAIN === 'localhost';
  const scheme = env.PUBLIC_SCHEME ?? (local ? 'http' : 'https');
  return `${scheme}://${account.subdomain}.${account.region}.${env.SERVICE_DOMAIN}${local ? `:${env.PORT}` : ''}`;
}

export const cliActor: Actor = { actor_type: 'user', actor_id: null, actor_name: 'command line' };

export function options(args: string[], spec: Record<string, { type: 'string' | 'boolean' }>) {
  try {
    return parseArgs({ args, options: spec, strict: true, allowPositionals: false }).values as Record<
      string,
      string | boolean | undefined
    >;
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
}

export function required(values: Record<string, string | boolean | undefined>, ...names: string[]): string[] {
  return names.map((n) => {
    const v = values[n];
    if (typeof v !== 'string' || v === '') throw new UsageError(`missing --${n}`);
    return v;
  });
}

export const tenantSpec = { clinic: { type: 'string' }, region: { type: 'string' } } as const;

export async function tenant(db: DbHandle, values: Record<string, string | boolean | undefined>) {
  const [clinic, region] = required(values, 'clinic', 'region');
  const account = await findAccount(db, clinic, region);
  if (!account) throw new UsageError(`no account ${clinic} in region ${region}`);
  return account;
}

/** A required id option (--key-id, --endpoint-id, ...): digits only. */
function idOption(values: Record<string, string | boolean | undefined>, name: string): number {
  const [raw] = required(values, name);
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a number`);
  return Number(raw);
}

export async function run(argv: string[]): Promise<void> {
  const [cmd, sub, ...rest] = argv;
  const env = loadEnv();
  const open = () =>
    openDb(env.DATABASE_URL, { migrate: true, pooler: env.DATABASE_POOLER, busyTimeoutMs: env.SQLITE_BUSY_TIMEOUT_MS });
  if (cmd === 'migrate') {
    const db = await open();
    await db.close();
    console.error('database migrated');
    return;
  }
  if (cmd === 'citus' && sub === 'distribute') {
    const values = options(rest, { shards: { type: 'string' } });
    const shards = values.shards === undefined ? undefined : String(values.shards);
    if (shards !== undefined && !/^[1-9]\d{0,3}$/.test(shards)) throw new UsageError('--shards must be 1 to 9999');
    if (!/^postgres(ql)?:/.test(env.DATABASE_URL)) throw new UsageError('DATABASE_URL must name the Citus coordinator');
    const { distribute, onCitus, DEFAULT_SHARD_COUNT } = await import('../../db/citus');
    // Migrated first: distribution reads the tables as the migrations leave them.
    const db = await open();
    const citus = await onCitus(db).finally(() => db.close());
    if (!citus)
      throw new CommandError('this database has no citus extension: DATABASE_URL must name a Citus coordinator');
    const steps = await distribute(env.DATABASE_URL, shards ? Number(shards) : DEFAULT_SHARD_COUNT, (line) =>
      console.error(line),
    );
    console.error(steps.length ? `distributed ${steps.length} tables` : 'already distributed; nothing to do');
    return;
  }
  if (cmd === 'demo') {
    const db = await open();
    return demo(db, env);
  }
  if (cmd === 'seed') {
    const values = options(
      [sub, ...rest].filter((x) => x !== undefined),
      tenantSpec,
    );
    const db = await open();
    try {
      const { seedAccount, fileStoreFor } = await seeding();
      const { created } = await seedAccount(db, await tenant(db, values), fileStoreFor(env, db));
      console.error(created ? 'sample practice loaded' : 'account already seeded; nothing to do');
    } finally {
      await db.close();
    }
    return;
  }
  if (cmd === 'account' && sub === 'create') {
    const values = options(rest, {
      ...tenantSpec,
      name: { type: 'string' },
      timezone: { type: 'string' },
      currency: { type: 'string' },
      locale: { type: 'string' },
      legacy: { type: 'boolean' },
    });
    const [clinic, region, name, timezone, currency] = required(
      values,
      'clinic',
      'region',
      'name',
      'timezone',
      'currency',
    );
    const db = await open();
    try {
      const account = await createAccount(
        db,
        {
          subdomain: clinic,
          region,
          name,
          timezone,
          currency,
          locale: values.locale as string | undefined,
          generation: values.legacy ? 'legacy' : 'current',
        },
        env.SERVICE_REGIONS,
      );
      console.error(`account ${account.subdomain}.${account.region} created (id ${account.id})`);
    } finally {
      await db.close();
    }
    return;
  }
  if (cmd === 'key' && ['create', 'rotate', 'revoke', 'list'].includes(sub)) {
    const values = options(rest, {
      ...tenantSpec,
      name: { type: 'string' },
      access: { type: 'string' },
      permissions: { type: 'string' },
      // Comma-separated networks (the option parser here takes one value per option).
      'allow-ip': { type: 'string' },
      expires: { type: 'string' },
      'key-id': { type: 'string' },
      grace: { type: 'string' },
    });
    const db = await open();
    try {
      const account = await tenant(db, values);
      if (sub === 'create') {
        const [name, access] = required(values, 'name', 'access');
        if (access !== 'read_write' && access !== 'read_only' && access !== 'restricted')
          throw new UsageError('--access must be read_write, read_only or restricted');
        const expires = values.expires as string | undefined;
        if (expires !== undefined && !(expires in EXPIRIES)) throw new UsageError('--expires must be 90d or 1y');
        if (name.length > 255) throw new UsageError('--name must be at most 255 characters');
        const { permissions, allowed_ips } = keyLimits(access, values);
        const key = await createKey(db, account, cliActor, {
          name,
          access,
          permissions,
          allowed_ips,
          expires: expires as Expiry | undefined,
        });
        console.log(key.secret);
      } else if (sub === 'rotate') {
        console.log((await rotateKey(db, account, cliActor, idOption(values, 'key-id'), graceOption(values))).secret);
      } else if (sub === 'revoke') {
        await revokeKey(db, account, cliActor, idOption(values, 'key-id'));
        console.error('key revoked');
      } else {
        console.log(JSON.stringify(await listKeys(db, account), null, 2));
      }
    } finally {
      await db.close();
    }
    return;
  }
  if (cmd === 'user' && ['create', 'deactivate', 'reactivate', 'list', 'reset-password'].includes(sub))
    return user(await open(), env, sub, rest);
  if (cmd === 'webhook' && ['create', 'list', 'rotate', 'disable', 'enable', 'replay', 'recover'].includes(sub))
    return webhook(await open(), env, sub, rest);
  if (cmd === 'worker') return worker(await open(), env);
  if (cmd === 'account' && sub === 'update')
    return (await import('./account-update')).accountUpdate(await open(), rest);
  if (cmd === 'practice-settings')
    return (await import('./practice-settings')).practiceSettings(
      await open(),
      [sub, ...rest].filter((x) => x !== undefined),
    );
  throw new UsageError(cmd ? `unknown command: ${[cmd, sub].filter(Boolean).join(' ')}` : 'no command given');
}

/**
 * `clinic user ...`: team members, through the same domain functions as the portal's Team page. A new
 * member (without --password-stdin) and `reset-password` get a one-time link: emailed with SMTP_URL,
 * else printed for the operator to hand over.
 */
async function user(db: DbHandle, env: Env, sub: string, args: string[]) {
  try {
    const { createMember, createMailer, findMember, listMembers, sendLink, setActive } = await team();
    const deliver = async (account: Account, userId: number, purpose: 'setup' | 'reset') => {
      const link = await sendLink(db, account, cliActor, userId, purpose, {
        origin: clinicOrigin(env, account),
        mailer: createMailer(env),
        now: Date.now(),
      });
      if (link.url) console.log(link.url);
      else console.error(`link emailed to ${link.emailed_to}`);
      console.error(`the link works once, until ${link.expires_at}`);
    };
    const values = options(args, {
      ...tenantSpec,
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      'practitioner-id': { type: 'string' },
      'password-stdin': { type: 'boolean' },
    });
    const account = await tenant(db, values);
    if (sub === 'list') {
      console.log(JSON.stringify(await listMembers(db.db, account.id), null, 2));
      return;
    }
    const [email] = required(values, 'email');
    if (sub === 'create') {
      const [name, role] = required(values, 'name', 'role');
      const parsedRole = z.enum(ROLE_KEYS).safeParse(role);
      if (!parsedRole.success) throw new UsageError(`--role must be one of ${ROLE_KEYS.join(', ')}`);
      const practitioner = values['practitioner-id'] === undefined ? null : idOption(values, 'practitioner-id');
      const password = values['password-stdin'] ? (await readStdin()).replace(/\r?\n$/, '') : undefined;
      const member = await createMember(db, account, cliActor, {
        name,
        email,
        role: parsedRole.data,
        practitioner_id: practitioner,
        password,
      });
      console.error(`member ${email} created`);
      if (password === undefined) await deliver(account, member.id, 'setup');
      return;
    }
    const member = await findMember(db.db, account.id, { email });
    if (!member) throw new UsageError(`no member ${email} on ${account.subdomain}.${account.region}`);
    if (sub === 'reset-password') return await deliver(account, member.id, 'reset');
    await setActive(db, account, cliActor, member.id, sub === 'reactivate');
    console.error(`member ${member.email} ${sub}d`);
  } finally {
    await db.close();
  }
}

/** `clinic webhook ...`: endpoints, through the same domain functions as the portal's Webhooks page. */
async function webhook(db: DbHandle, env: Env, sub: string, args: string[]) {
  try {
    const {
      createEndpoint,
      listEndpoints,
      loadSecretsKey,
      recoverSince,
      replayEvent,
      rotateSecret,
      setEndpointEnabled,
    } = await webhooks();
    await loadSecretsKey(db, env);
    const values = options(args, {
      ...tenantSpec,
      url: { type: 'string' },
      events: { type: 'string' },
      description: { type: 'string' },
      'endpoint-id': { type: 'string' },
      'event-id': { type: 'string' },
      since: { type: 'string' },
      grace: { type: 'string' },
    });
    const account = await tenant(db, values);
    const endpointId = () => idOption(values, 'endpoint-id');
    if (sub === 'create') {
      const [url] = required(values, 'url');
      const events =
        typeof values.events === 'string' && values.events !== 'all'
          ? values.events.split(',').map((e) => e.trim())
          : 'all';
      const description = typeof values.description === 'string' ? values.description : null;
      console.log(
        (await createEndpoint(db, account, cliActor, { url, events, description }, env.WEBHOOKS_ALLOW_PRIVATE)).secret,
      );
    } else if (sub === 'list') {
      console.log(JSON.stringify(await listEndpoints(db.db, account.id), null, 2));
    } else if (sub === 'rotate') {
      console.log((await rotateSecret(db, account, cliActor, endpointId(), graceOption(values))).secret);
    } else if (sub === 'disable' || sub === 'enable') {
      await setEndpointEnabled(
        db,
        account,
        cliActor,
        endpointId(),
        sub === 'enable',
        sub === 'disable' ? 'Disabled from the command line' : null,
      );
      console.error(`endpoint ${sub}d`);
    } else if (sub === 'replay') {
      const [eventId] = required(values, 'event-id');
      const { messages } = await replayEvent(
        db,
        account,
        cliActor,
        eventId,
        values['endpoint-id'] === undefined ? undefined : endpointId(),
      );
      console.error(`${messages} message(s) queued for delivery`);
    } else {
      const [since] = required(values, 'since');
      if (Number.isNaN(Date.parse(since))) throw new UsageError('--since must be an ISO 8601 time');
      const { messages } = await recoverSince(db, account, cliActor, endpointId(), new Date(since).toISOString());
      console.error(`${messages} failed message(s) queued for delivery`);
    }
  } finally {
    await db.close();
  }
}

/**
 * `clinic worker`: a webhook delivery worker alone, until SIGTERM or SIGINT. It does not take the
 * `webhooks.deliver` lease (server/jobs/index.ts): it is capacity an operator adds, consuming beside the
 * servers' one loop (or alone, with WEBHOOK_WORKER=off on the servers). The per-message leases (claimed
 * with SKIP LOCKED) keep every message to one worker at a time, however many run. With METRICS_PORT it
 * serves its own Prometheus metrics there (deliveries, lag, queue depth, pool, event loop), as a server
 * does: give it a port of its own beside servers on the same machine.
 */
async function worker(db: DbHandle, env: Env) {
  const { loadSecretsKey, policyOf, WebhookWorker } = await webhooks();
  await loadSecretsKey(db, env);
  const metrics = await (await import('../observability/start')).serveMetrics(env, db);
  if (metrics) console.error(`metrics on http://${env.METRICS_HOST}:${metrics.port}/metrics`);
  const w = new WebhookWorker(db, policyOf(env), Date.now, (err) => console.error('clinic worker:', err));
  w.start();
  console.error('webhook worker running (Ctrl-C stops it after the deliveries in flight)');
  // The worker's own timers do not hold a server process open; alone, this one does.
  const alive = setInterval(() => undefined, 60_000);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  clearInterval(alive);
  await w.stop();
  await metrics?.close();
  await db.close();
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const DEMO_OWNER = { name: 'Demo Owner', email: 'owner@demo.example' };

/**
 * `npm run demo`: the demo clinic, seeded, with a fresh key and the owner's portal sign-in printed for
 * the newcomer. The owner is created when absent; when present, their password is reset so that what is
 * printed works (the demo clinic is a local playground).
 */
async function demo(db: DbHandle, env: Env) {
  const { port, domain } = { port: env.PORT, domain: env.SERVICE_DOMAIN };
  try {
    const { seedAccount, fileStoreFor } = await seeding();
    const { createMember, findMember, generatePassword, resetPassword } = await team();
    const store = fileStoreFor(env, db);
    const account =
      (await findAccount(db, 'demo', 'neptune')) ??
      (await createAccount(db, {
        subdomain: 'demo',
        region: 'neptune',
        name: 'Demo Physiotherapy',
        timezone: 'Europe/London',
        currency: 'GBP',
      }));
    await seedAccount(db, account, store);
    const key = await createKey(db, account, cliActor, {
      name: `Demo key ${new Date().toISOString().slice(0, 16)}`,
      access: 'read_write',
    });
    const password = generatePassword();
    const owner = await findMember(db.db, account.id, { email: DEMO_OWNER.email });
    if (owner) await resetPassword(db, account, cliActor, owner.id, password);
    else await createMember(db, account, cliActor, { ...DEMO_OWNER, role: 'owner', password });
    const host = `http://demo.neptune.${domain}:${port}`;
    const base = `${host}/v3/api`;
    console.log(
      `\nDemo clinic ready.\n  Base URL: ${base}\n  API key:  ${key.secret}\n\n  curl -H "Authorization: Bearer ${key.secret}" ${base}/patients?page_size=5\n` +
        `\nDeveloper portal: ${host}/developers\n  Email:    ${DEMO_OWNER.email}\n  Password: ${password}\n`,
    );
  } finally {
    await db.close();
  }
}

/** The one line a known failure prints (exit code 2), or undefined for a crash. */
/** `--grace 24h|1h|now`: how long the replaced secret keeps working (the portal's choice); 24h when left out. */
function graceOption(values: Record<string, unknown>) {
  const grace = rotationGraceInput.safeParse(values.grace);
  if (!grace.success) throw new UsageError(`--grace must be one of ${ROTATION_GRACE_NAMES.join(', ')}`);
  return grace.data;
}

export function explain(err: unknown): string | undefined {
  if (err instanceof AccountError || err instanceof KeyError || err instanceof ConfigError)
    return `clinic: ${err.message.split('\n').join(' ')} (clinic help lists the commands)`;
  if (err instanceof ApiError) {
    const detail = Object.entries(err.errors ?? {}).map(([k, v]) => `${k} ${v.join(', ')}`);
    return `clinic: ${detail.length ? detail.join('; ') : err.message}`;
  }
  return undefined;
}

/**
 * `--permissions patients:read,scheduling:write` (restricted keys only; groups left out are none) and
 * `--allow-ip CIDR,…`, read with the portal's own rules.
 */
function keyLimits(access: string, values: Record<string, unknown>) {
  const raw = values.permissions as string | undefined;
  if ((access === 'restricted') !== (raw !== undefined))
    throw new UsageError(
      access === 'restricted'
        ? `--access restricted needs --permissions GROUP:read|write,… (groups: ${GROUP_NAMES.join(', ')})`
        : '--permissions is for --access restricted',
    );
  let permissions;
  if (raw !== undefined) {
    const pairs = raw.split(',').map((p) => p.trim().split(':'));
    const bad = pairs.find((p) => p.length !== 2);
    if (bad) throw new UsageError(`--permissions: "${bad.join(':')}" is not GROUP:read or GROUP:write`);
    const parsed = permissionsInput.safeParse(Object.fromEntries(pairs));
    if (!parsed.success) throw new UsageError(`--permissions: ${issueText(parsed.error)}`);
    permissions = parsed.data;
  }
  const ips = ((values['allow-ip'] as string | undefined) ?? '').split(',').filter((v) => v.trim() !== '');
  const networks = allowedIpsInput.safeParse(ips);
  if (!networks.success) throw new UsageError(`--allow-ip: ${issueText(networks.error)}`);
  return { permissions, allowed_ips: networks.data };
}

const issueText = (e: z.ZodError) =>
  e.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
