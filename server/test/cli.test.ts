import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, expectError, startServer, uniqueName, type TestServer } from './helpers';
import type { Account } from '../context';
import { findAccount } from '../domain/accounts';
import { eq } from 'drizzle-orm';
import { passwordLinks } from '../../db/schema';
import { clinic } from './support/cli';

/**
 * Each command starts a process: under a second compiled (support/cli.ts), several on a loaded 2-core
 * machine, and 3+ s when the launcher falls back to tsx. A budget that holds under load (the suite's 20 s
 * default does not for a test of several commands); what the tests check never depends on the speed.
 */
const CLI_BUDGET_MS = 180_000;

let server: TestServer;
const name = uniqueName('cli');
let account: Account;

beforeAll(async () => {
  server = await startServer();
  const created = await clinic(
    'account',
    'create',
    '--clinic',
    name,
    '--region',
    'mercury',
    '--name',
    'CLI Physio',
    '--timezone',
    'Europe/Berlin',
    '--currency',
    'EUR',
  );
  expect(created.code).toBe(0);
  account = (await findAccount(server.app.db, name, 'mercury'))!;
}, CLI_BUDGET_MS);
afterAll(() => server.close());

describe('clinic command line', { timeout: CLI_BUDGET_MS }, () => {
  it('account create makes a tenant that resolves from its host', async () => {
    expect(account).toMatchObject({
      region: 'mercury',
      name: 'CLI Physio',
      timezone: 'Europe/Berlin',
      currency: 'EUR',
      generation: 'current',
    });
  });

  it('key create prints the secret alone on stdout; the key works; rotate and revoke take effect', async () => {
    const created = await clinic(
      'key',
      'create',
      '--clinic',
      name,
      '--region',
      'mercury',
      '--name',
      'Sync job',
      '--access',
      'read_only',
      '--expires',
      '90d',
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^cpk_[0-9A-Za-z]{38}\n$/);
    const secret = created.stdout.trim();
    const c = { account, host: `${name}.mercury.localhost`, key: secret, readOnlyKey: secret };
    const me = await client(server, c).get('/me');
    expect(me.body.data).toMatchObject({ name: 'Sync job', scopes: ['read'] });

    const listed = JSON.parse((await clinic('key', 'list', '--clinic', name, '--region', 'mercury')).stdout);
    const entry = listed.find((k: { name: string }) => k.name === 'Sync job');
    expect(entry).toMatchObject({ access: 'read_only', status: 'active', start: secret.slice(0, 8) });
    expect(JSON.stringify(listed)).not.toContain(secret);

    const rotated = await clinic(
      'key',
      'rotate',
      '--clinic',
      name,
      '--region',
      'mercury',
      '--key-id',
      String(entry.id),
    );
    expect(rotated.code).toBe(0);
    const fresh = rotated.stdout.trim();
    expect(fresh).not.toBe(secret);
    expect((await client(server, { ...c, key: fresh }).get('/me')).status).toBe(200);

    expect(
      (await clinic('key', 'revoke', '--clinic', name, '--region', 'mercury', '--key-id', String(entry.id))).code,
    ).toBe(0);
    await new Promise((r) => setTimeout(r, 1100));
    expectError(await client(server, { ...c, key: fresh }).get('/me'), 401, 'unauthenticated');
  });

  it.each([
    [['account', 'create', '--clinic', 'x'], /missing --region/],
    [
      [
        'account',
        'create',
        '--clinic',
        'Bad Name',
        '--region',
        'neptune',
        '--name',
        'n',
        '--timezone',
        'Europe/London',
        '--currency',
        'GBP',
      ],
      /DNS label/,
    ],
    [
      [
        'account',
        'create',
        '--clinic',
        'okname',
        '--region',
        'pluto',
        '--name',
        'n',
        '--timezone',
        'Europe/London',
        '--currency',
        'GBP',
      ],
      /region/,
    ],
    [
      [
        'account',
        'create',
        '--clinic',
        'okname',
        '--region',
        'neptune',
        '--name',
        'n',
        '--timezone',
        'Mars/Olympus',
        '--currency',
        'GBP',
      ],
      /timezone/,
    ],
    [['key', 'create', '--clinic', name, '--region', 'mercury', '--name', 'n', '--access', 'admin'], /--access/],
    [
      [
        'key',
        'create',
        '--clinic',
        name,
        '--region',
        'mercury',
        '--name',
        'n',
        '--access',
        'read_write',
        '--expires',
        '2d',
      ],
      /--expires/,
    ],
    [['key', 'rotate', '--clinic', name, '--region', 'mercury', '--key-id', 'abc'], /--key-id/],
    [['key', 'rotate', '--clinic', name, '--region', 'mercury', '--key-id', '1', '--grace', '2d'], /--grace/],
    [
      ['key', 'create', '--clinic', 'nosuch', '--region', 'neptune', '--name', 'n', '--access', 'read_write'],
      /no account/,
    ],
    [['key', 'list', '--clinic', name, '--region', 'mercury', '--bogus', '1'], /bogus/],
    [['frobnicate'], /unknown command/],
    [['citus', 'distribute', '--shards', '0'], /--shards/],
    // The suite's database is SQLite or a plain PostgreSQL (the Citus stage does not run this file).
    [['citus', 'distribute'], /Citus coordinator/],
  ])('bad arguments %j → one line on stderr, exit code 2', async (args, message) => {
    const res = await clinic(...(args as string[]));
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(message);
  });

  it('a legacy-generation account cannot create keys', async () => {
    const legacy = uniqueName('old');
    expect(
      (
        await clinic(
          'account',
          'create',
          '--clinic',
          legacy,
          '--region',
          'vulcan',
          '--name',
          'Old',
          '--timezone',
          'America/Chicago',
          '--currency',
          'USD',
          '--legacy',
        )
      ).code,
    ).toBe(0);
    const res = await clinic(
      'key',
      'create',
      '--clinic',
      legacy,
      '--region',
      'vulcan',
      '--name',
      'n',
      '--access',
      'read_write',
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/not yet native/);
  });

  it('user create prints a one-time set-up link alone (no one else knows the password); reset-password a reset link; deactivate, reactivate and list', async () => {
    const owner = await clinic(
      'user',
      'create',
      '--clinic',
      name,
      '--region',
      'mercury',
      '--email',
      `owner@${name}.test`,
      '--name',
      'Olga',
      '--role',
      'owner',
    );
    expect(owner.code).toBe(0);
    const link = /^(http:\/\/[^/]+\.mercury\.localhost:\d+\/developers\/password#token=([\w-]{43}))\n$/.exec(
      owner.stdout,
    );
    expect(link, owner.stdout).not.toBeNull();
    expect(owner.stderr).toMatch(/works once, until/);
    const reset = await clinic(
      'user',
      'reset-password',
      '--clinic',
      name,
      '--region',
      'mercury',
      '--email',
      `owner@${name}.test`,
    );
    expect(reset.code).toBe(0);
    const resetToken = /#token=([\w-]{43})\n$/.exec(reset.stdout)?.[1];
    expect(resetToken).toBeDefined();
    // The newer link ends the older one; only the newer one opens the page.
    const links = await server.app.db.db
      .select({ purpose: passwordLinks.purpose, used_at: passwordLinks.used_at })
      .from(passwordLinks)
      .where(eq(passwordLinks.account_id, account.id));
    expect(links).toEqual([{ purpose: 'reset', used_at: null }]);
    const second = await clinic(
      'user',
      'create',
      '--clinic',
      name,
      '--region',
      'mercury',
      '--email',
      `owner2@${name}.test`,
      '--name',
      'Two',
      '--role',
      'owner',
    );
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/transfer ownership/);
    const badRole = await clinic(
      'user',
      'create',
      '--clinic',
      name,
      '--region',
      'mercury',
      '--email',
      `x@${name}.test`,
      '--name',
      'X',
      '--role',
      'boss',
    );
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toMatch(/--role must be one of/);
    const off = await clinic(
      'user',
      'deactivate',
      '--clinic',
      name,
      '--region',
      'mercury',
      '--email',
      `owner@${name}.test`,
    );
    expect(off.code).toBe(2);
    const listed = JSON.parse((await clinic('user', 'list', '--clinic', name, '--region', 'mercury')).stdout);
    expect(listed).toEqual([expect.objectContaining({ email: `owner@${name}.test`, role: 'owner', active: true })]);
  });

  it('webhook create prints the signing secret alone; list, rotate, disable and enable; refusals exit 2', async () => {
    const created = await clinic(
      'webhook',
      'create',
      '--clinic',
      name,
      '--region',
      'mercury',
      '--url',
      'https://8.8.8.8/hooks',
      '--events',
      'patients.created,patients.updated',
      '--description',
      'CRM sync',
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^whsec_[A-Za-z0-9+/]{43}=\n$/);
    const [endpoint] = JSON.parse((await clinic('webhook', 'list', '--clinic', name, '--region', 'mercury')).stdout);
    expect(endpoint).toMatchObject({
      url: 'https://8.8.8.8/hooks',
      description: 'CRM sync',
      events: ['patients.created', 'patients.updated'],
      enabled: true,
    });
    expect(JSON.stringify(endpoint)).not.toContain(created.stdout.trim());
    const rotated = await clinic(
      'webhook',
      'rotate',
      '--clinic',
      name,
      '--region',
      'mercury',
      '--endpoint-id',
      String(endpoint.id),
    );
    expect(rotated.stdout).toMatch(/^whsec_/);
    expect(rotated.stdout).not.toBe(created.stdout);
    const listed = async () =>
      JSON.parse((await clinic('webhook', 'list', '--clinic', name, '--region', 'mercury')).stdout)[0];
    expect((await listed()).rotating_until).not.toBeNull();
    // A leaked secret: --grace now ends the previous one at once, as the portal's choice does.
    const leaked = await clinic(
      'webhook',
      'rotate',
      '--clinic',
      name,
      '--region',
      'mercury',
      '--endpoint-id',
      String(endpoint.id),
      '--grace',
      'now',
    );
    expect(leaked.code, leaked.stderr).toBe(0);
    expect((await listed()).rotating_until).toBeNull();
    expect(
      (
        await clinic(
          'webhook',
          'disable',
          '--clinic',
          name,
          '--region',
          'mercury',
          '--endpoint-id',
          String(endpoint.id),
        )
      ).code,
    ).toBe(0);
    expect(
      JSON.parse((await clinic('webhook', 'list', '--clinic', name, '--region', 'mercury')).stdout)[0].enabled,
    ).toBe(false);
    expect(
      (await clinic('webhook', 'enable', '--clinic', name, '--region', 'mercury', '--endpoint-id', String(endpoint.id)))
        .code,
    ).toBe(0);
    const privateTarget = await clinic(
      'webhook',
      'create',
      '--clinic',
      name,
      '--region',
      'mercury',
      '--url',
      'https://10.0.0.1/hooks',
    );
    expect(privateTarget.code).toBe(2);
    expect(privateTarget.stderr).toMatch(/url .*non-public/);
    const unknownType = await clinic(
      'webhook',
      'create',
      '--clinic',
      name,
      '--region',
      'mercury',
      '--url',
      'https://8.8.8.8/x',
      '--events',
      'patients.exploded',
    );
    expect(unknownType.code).toBe(2);
    const replay = await clinic(
      'webhook',
      'replay',
      '--clinic',
      name,
      '--region',
      'mercury',
      '--event-id',
      '00000000-0000-0000-0000-000000000000',
    );
    expect(replay.code).toBe(2);
    expect(replay.stderr).toMatch(/No event/);
    const recover = await clinic(
      'webhook',
      'recover',
      '--clinic',
      name,
      '--region',
      'mercury',
      '--endpoint-id',
      String(endpoint.id),
      '--since',
      '2026-01-01T00:00:00Z',
    );
    expect(recover.code).toBe(0);
    expect(recover.stderr).toMatch(/0 failed message/);
  });
});
