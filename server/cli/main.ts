/**
 * The `clinic` command line (npm run -s clinic -- ...). Secrets go alone to stdout; everything else
 * to stderr. Bad arguments: one line on stderr and exit code 2.
 */
import { parseArgs } from 'node:util';
import { openDb, type DbHandle } from '../../db/client';
import { KeyError, createKey, listKeys, revokeKey, rotateKey, EXPIRIES, type Expiry } from '../domain/api_keys';
import { AccountError, createAccount, findAccount } from '../domain/accounts';
import { seedAccount } from '../seed';
import { LocalDiskStore, type FileStore } from '../files/store';
import type { Actor } from '../events/record';
import { ConfigError, loadEnv } from '../env';

class UsageError extends Error {}

const USAGE = `usage:
  clinic account create --clinic NAME --region REGION --name "Clinic name" --timezone Area/City --currency XXX [--locale en] [--legacy]
  clinic key create --clinic NAME --region REGION --name "Integration" --access read_write|read_only [--expires 90d|1y]
  clinic key rotate|revoke --clinic NAME --region REGION --key-id N
  clinic key list --clinic NAME --region REGION
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

function keyId(values: Record<string, string | boolean | undefined>): number {
  const [raw] = required(values, 'key-id');
  if (!/^\d+$/.test(raw)) throw new UsageError('--key-id must be a number');
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
  if (cmd === 'demo') return demo(await open(), env.PORT, env.SERVICE_DOMAIN, new LocalDiskStore(env.FILES_DIR));
  if (cmd === 'seed') {
    const values = options([sub, ...rest].filter((x) => x !== undefined), tenantSpec);
    const db = await open();
    try {
      const { created } = await seedAccount(db, await tenant(db, values), new LocalDiskStore(env.FILES_DIR));
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
      });
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
        console.log((await rotateKey(db, account, cliActor, keyId(values))).secret);
      } else if (sub === 'revoke') {
        await revokeKey(db, account, cliActor, keyId(values));
        console.error('key revoked');
      } else {
        console.log(JSON.stringify(await listKeys(db, account), null, 2));
      }
    } finally {
      await db.close();
    }
    return;
  }
  throw new UsageError(cmd ? `unknown command: ${[cmd, sub].filter(Boolean).join(' ')}` : 'no command given');
}

/** `npm run demo`: the demo clinic, seeded, with a fresh key printed for the newcomer. */
async function demo(db: DbHandle, port: number, domain: string, store: FileStore) {
  try {
    const account =
      (await findAccount(db, 'demo', 'neptune')) ??
      (await createAccount(db, { subdomain: 'demo', region: 'neptune', name: 'Demo Physiotherapy', timezone: 'Europe/London', currency: 'GBP' }));
    await seedAccount(db, account, store);
    const key = await createKey(db, account, cliActor, { name: `Demo key ${new Date().toISOString().slice(0, 16)}`, access: 'read_write' });
    const base = `http://demo.neptune.${domain}:${port}/v3/api`;
    console.log(`\nDemo clinic ready.\n  Base URL: ${base}\n  API key:  ${key.secret}\n\n  curl -H "Authorization: Bearer ${key.secret}" ${base}/patients?page_size=5\n`);
  } finally {
    await db.close();
  }
}

run(process.argv.slice(2)).catch((err) => {
  if (err instanceof UsageError || err instanceof AccountError || err instanceof KeyError || err instanceof ConfigError) {
    console.error(`clinic: ${err.message.split('\n').join(' ')} (clinic help lists the commands)`);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
