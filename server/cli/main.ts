/**
 * The `clinic` command line (npm run -s clinic -- ...). Secrets go alone to stdout; everything else
 * to stderr. Bad arguments: one line on stderr and exit code 2.
 */
import { parseArgs } from 'node:util';
import { openDb, type DbHandle } from '../../db/client';
import { KeyError, createKey, listKeys, revokeKey, rotateKey, EXPIRIES, type Expiry } from '../domain/api_keys';
import { AccountError, createAccount, findAccount } from '../domain/accounts';
import { seedAccount } from '../seed';
import { fileStoreFor } from '../files/db-store';
import type { FileStore } from '../files/store';
import type { Actor } from '../events/record';
import { ConfigError, loadEnv, type Env } from '../env';
import { createEndpoint, listEndpoints, recoverSince, replayEvent, rotateSecret, setEndpointEnabled } from '../domain/webhooks';
import { loadSecretsKey } from '../webhooks/secrets';
import { policyOf, WebhookWorker } from '../webhooks/worker';
import { z } from 'zod';
import { ROLE_KEYS } from '../../db/schema';
import { generatePassword } from '../auth/passwords';
import { createMember, findMember, listMembers, resetPassword, setActive } from '../domain/team';
import { ApiError } from '../errors';

class UsageError extends Error {}

const USAGE = `usage:
  clinic account create --clinic NAME --region REGION --name "Clinic name" --timezone Area/City --currency XXX [--locale en] [--legacy]
  clinic key create --clinic NAME --region REGION --name "Integration" --access read_write|read_only [--expires 90d|1y]
  clinic key rotate|revoke --clinic NAME --region REGION --key-id N
  clinic key list --clinic NAME --region REGION
  clinic user create --clinic NAME --region REGION --email EMAIL --name "Name" --role owner|admin|practitioner|receptionist [--practitioner-id N] [--password-stdin]
  clinic user deactivate|reactivate --clinic NAME --region REGION --email EMAIL
  clinic user list --clinic NAME --region REGION
  clinic webhook create --clinic NAME --region REGION --url URL [--events all|a,b] [--description D]
  clinic webhook list --clinic NAME --region REGION
  clinic webhook rotate|disable|enable --clinic NAME --region REGION --endpoint-id N
  clinic webhook replay --clinic NAME --region REGION --event-id ID [--endpoint-id N]
  clinic webhook recover --clinic NAME --region REGION --endpoint-id N --since ISO8601
  clinic worker
  clinic seed --clinic NAME --region REGION
  clinic migrate
  clinic demo`;

const cliActor: Actor = { actor_type: 'user', actor_id: null, actor_name: 'command line' };

function options(args: string[], spec: Record<string, { type: 'string' | 'boolean' }>) {
  try {
    return parseArgs({ args, options: spec, strict: true, allowPositionals: false }).values as Record<string, string | boolean | undefined>;
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
}

function required(values: Record<string, string | boolean | undefined>, ...names: string[]): string[] {
  return names.map((n) => {
    const v = values[n];
    if (typeof v !== 'string' || v === '') throw new UsageError(`missing --${n}`);
    return v;
  });
}

const tenantSpec = { clinic: { type: 'string' }, region: { type: 'string' } } as const;

async function tenant(db: DbHandle, values: Record<string, string | boolean | undefined>) {
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

async function run(argv: string[]): Promise<void> {
  const [cmd, sub, ...rest] = argv;
  if (cmd === 'help' || cmd === '--help') {
    console.error(USAGE);
    return;
  }
  const env = loadEnv();
  const open = () => openDb(env.DATABASE_URL, { migrate: true });
  if (cmd === 'migrate') {
    const db = await open();
    await db.close();
    console.error('database migrated');
    return;
  }
  if (cmd === 'demo') {
    const db = await open();
    return demo(db, env.PORT, env.SERVICE_DOMAIN, fileStoreFor(env, db));
  }
  if (cmd === 'seed') {
    const values = options([sub, ...rest].filter((x) => x !== undefined), tenantSpec);
    const db = await open();
    try {
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
    const [clinic, region, name, timezone, currency] = required(values, 'clinic', 'region', 'name', 'timezone', 'currency');
    const db = await open();
    try {
      const account = await createAccount(db, {
        subdomain: clinic,
        region,
        name,
        timezone,
        currency,
        locale: values.locale as string | undefined,
        generation: values.legacy ? 'legacy' : 'current',
      }, env.SERVICE_REGIONS);
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
      expires: { type: 'string' },
      'key-id': { type: 'string' },
    });
    const db = await open();
    try {
      const account = await tenant(db, values);
      if (sub === 'create') {
        const [name, access] = required(values, 'name', 'access');
        if (access !== 'read_write' && access !== 'read_only') throw new UsageError('--access must be read_write or read_only');
        const expires = values.expires as string | undefined;
        if (expires !== undefined && !(expires in EXPIRIES)) throw new UsageError('--expires must be 90d or 1y');
        if (name.length > 255) throw new UsageError('--name must be at most 255 characters');
        const key = await createKey(db, account, cliActor, { name, access, expires: expires as Expiry | undefined });
        console.log(key.secret);
      } else if (sub === 'rotate') {
        console.log((await rotateKey(db, account, cliActor, idOption(values, 'key-id'))).secret);
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
  if (cmd === 'user' && ['create', 'deactivate', 'reactivate', 'list'].includes(sub)) return user(await open(), sub, rest);
  if (cmd === 'webhook' && ['create', 'list', 'rotate', 'disable', 'enable', 'replay', 'recover'].includes(sub)) return webhook(await open(), env, sub, rest);
  if (cmd === 'worker') return worker(await open(), env);
  throw new UsageError(cmd ? `unknown command: ${[cmd, sub].filter(Boolean).join(' ')}` : 'no command given');
}

/** `clinic user ...`: team members, through the same domain functions as the portal's Team page. */
async function user(db: DbHandle, sub: string, args: string[]) {
  try {
    const values = options(args, { ...tenantSpec, email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' }, 'practitioner-id': { type: 'string' }, 'password-stdin': { type: 'boolean' } });
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
      const password = values['password-stdin'] ? (await readStdin()).replace(/\r?\n$/, '') : generatePassword();
      await createMember(db, account, cliActor, { name, email, role: parsedRole.data, practitioner_id: practitioner, password });
      if (!values['password-stdin']) console.log(password);
      else console.error(`member ${email} created`);
      return;
    }
    const member = await findMember(db.db, account.id, { email });
    if (!member) throw new UsageError(`no member ${email} on ${account.subdomain}.${account.region}`);
    await setActive(db, account, cliActor, member.id, sub === 'reactivate');
    console.error(`member ${member.email} ${sub}d`);
  } finally {
    await db.close();
  }
}

/** `clinic webhook ...`: endpoints, through the same domain functions as the portal's Webhooks page. */
async function webhook(db: DbHandle, env: Env, sub: string, args: string[]) {
  try {
    await loadSecretsKey(db, env);
    const values = options(args, { ...tenantSpec, url: { type: 'string' }, events: { type: 'string' }, description: { type: 'string' }, 'endpoint-id': { type: 'string' }, 'event-id': { type: 'string' }, since: { type: 'string' } });
    const account = await tenant(db, values);
    const endpointId = () => idOption(values, 'endpoint-id');
    if (sub === 'create') {
      const [url] = required(values, 'url');
      const events = typeof values.events === 'string' && values.events !== 'all' ? values.events.split(',').map((e) => e.trim()) : 'all';
      const description = typeof values.description === 'string' ? values.description : null;
      console.log((await createEndpoint(db, account, cliActor, { url, events, description }, env.WEBHOOKS_ALLOW_PRIVATE)).secret);
    } else if (sub === 'list') {
      console.log(JSON.stringify(await listEndpoints(db.db, account.id), null, 2));
    } else if (sub === 'rotate') {
      console.log((await rotateSecret(db, account, cliActor, endpointId())).secret);
    } else if (sub === 'disable' || sub === 'enable') {
      await setEndpointEnabled(db, account, cliActor, endpointId(), sub === 'enable', sub === 'disable' ? 'Disabled from the command line' : null);
      console.error(`endpoint ${sub}d`);
    } else if (sub === 'replay') {
      const [eventId] = required(values, 'event-id');
      const { messages } = await replayEvent(db, account, cliActor, eventId, values['endpoint-id'] === undefined ? undefined : endpointId());
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

/** `clinic worker`: the webhook delivery worker alone (with WEBHOOK_WORKER=off on the servers), until SIGTERM or SIGINT. */
async function worker(db: DbHandle, env: Env) {
  await loadSecretsKey(db, env);
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
async function demo(db: DbHandle, port: number, domain: string, store: FileStore) {
  try {
    const account =
      (await findAccount(db, 'demo', 'neptune')) ??
      (await createAccount(db, { subdomain: 'demo', region: 'neptune', name: 'Demo Physiotherapy', timezone: 'Europe/London', currency: 'GBP' }));
    await seedAccount(db, account, store);
    const key = await createKey(db, account, cliActor, { name: `Demo key ${new Date().toISOString().slice(0, 16)}`, access: 'read_write' });
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

run(process.argv.slice(2)).catch((err) => {
  if (err instanceof UsageError || err instanceof AccountError || err instanceof KeyError || err instanceof ConfigError) {
    console.error(`clinic: ${err.message.split('\n').join(' ')} (clinic help lists the commands)`);
    process.exit(2);
  }
  if (err instanceof ApiError) {
    const detail = Object.entries(err.errors ?? {}).map(([k, v]) => `${k} ${v.join(', ')}`);
    console.error(`clinic: ${detail.length ? detail.join('; ') : err.message}`);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
