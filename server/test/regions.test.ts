/**
 * One deployment per region (SERVICE_REGIONS): a clinic host of a region this deployment does not
 * serve is 421 wrong_region, as JSON, on every path (REST, MCP, OAuth, the portal); account create
 * refuses such a region; the variable itself is validated at start-up.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, loadEnv } from '../env';
import { expectError, newClinic, request, startServer, uniqueName, type Clinic, type TestServer } from './helpers';
import { clinicWith } from './support/cli';

const envWith = (vars: Record<string, string>): NodeJS.ProcessEnv => ({ NODE_ENV: 'test', ...vars });
let server: TestServer;
let served: Clinic;
let elsewhere: Clinic;

beforeAll(async () => {
  server = await startServer({ SERVICE_REGIONS: 'neptune,mercury' });
  [served, elsewhere] = [await newClinic(server, { region: 'neptune' }), await newClinic(server, { region: 'apollo' })];
});
afterAll(() => server.close());

describe('SERVICE_REGIONS', () => {
  test('a served region answers as usual', async () => {
    expect((await request(server, 'GET', '/me', { host: served.host, key: served.key })).status).toBe(200);
  });

  test.each([
    '/v3/api/me',
    '/v3/api/ping',
    '/v3/api/mcp',
    '/.well-known/oauth-authorization-server',
    '/v3/oauth2/register',
    '/developers/sign-in',
    '/developers/trpc/session.me',
  ])("another region's clinic host: %s is 421 wrong_region naming where it is served", async (p) => {
    const res = await request(server, p === '/v3/oauth2/register' || p === '/v3/api/mcp' ? 'POST' : 'GET', p, {
      host: elsewhere.host,
      key: elsewhere.key,
      body: p.endsWith('register') || p.endsWith('mcp') ? {} : undefined,
    });
    expectError(res, 421, 'wrong_region');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.message).toContain(`{clinic}.apollo.`);
    expect(res.body.message).toContain('neptune, mercury');
  });

  test('account create refuses a region this deployment does not serve (exit 2, nothing created)', async () => {
    const clinic = uniqueName('reg');
    const refused = await clinicWith(
      { SERVICE_REGIONS: 'neptune' },
      ...['account', 'create', '--clinic', clinic, '--region', 'vulcan', '--name', 'Far Away'],
      ...['--timezone', 'Europe/Rome', '--currency', 'EUR'],
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/serves neptune/);
    expect((await request(server, 'GET', '/me', { host: `${clinic}.vulcan.localhost`, key: 'x' })).status).not.toBe(
      200,
    );
  });

  test('an unknown region or an empty list stops start-up with a message naming the variable', () => {
    for (const bad of ['atlantis', 'neptune,atlantis', ' , ']) {
      expect(() => loadEnv(envWith({ SERVICE_REGIONS: bad })), bad).toThrow(ConfigError);
      try {
        loadEnv(envWith({ SERVICE_REGIONS: bad }));
      } catch (err) {
        expect((err as Error).message).toMatch(/SERVICE_REGIONS/);
      }
    }
    expect(loadEnv(envWith({})).SERVICE_REGIONS).toEqual(['neptune', 'mercury', 'vulcan', 'jupiter', 'apollo']);
  });
});
