/**
 * AI-connector approvals and revocations in the portal's activity log (spec, Authentication: "AI-connector
 * approval and revocation are recorded in the account activity log"), each with the app's and the
 * member's names: approval, revocation in the portal, by the app itself (RFC 7009), by the server on a
 * replayed code or refresh token, and by deactivating the member.
 */
import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, expect, test } from 'vitest';
import { createMember, setActive } from '../domain/team';
import { MCP_PATH } from '../oauth/urls';
import { request, uniqueName, useClinic, type Res } from './helpers';
import { PASSWORD, portalClient, portalData, type PortalClient } from './support/portal';

// Every OAuth call here is unauthenticated: the per-address budget is lifted (budgets have tests of their own).
const t = useClinic({ env: { RATE_LIMIT_UNAUTH_PER_MINUTE: '1000' } });
const REDIRECT = 'http://127.0.0.1:8765/callback';
const system = { actor_type: 'system' as const, actor_id: null, actor_name: 'test' };

const form = (path: string, fields: Record<string, string>) =>
  request(t.server, 'POST', path, {
    host: t.clinic.host,
    key: null,
    raw: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

async function register(name: string): Promise<string> {
  const res = await request(t.server, 'POST', '/v3/oauth2/register', {
    host: t.clinic.host,
    key: null,
    raw: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', client_name: name }),
    headers: { 'content-type': 'application/json' },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.client_id;
}

/** Registration, consent by `portal`'s member, and the code exchange: the client, the code and its tokens. */
async function connect(portal: PortalClient, name: string) {
  const clientId = await register(name);
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'st',
    scope: 'mcp:read',
    resource: `http://${t.clinic.host}${MCP_PATH}`,
  });
  const approved = await portal.mutate('connectors.approve', { query: query.toString() });
  expect(approved.status, approved.text).toBe(200);
  const code = new URL(portalData(approved).redirect).searchParams.get('code')!;
  const exchange = {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id: clientId,
    code_verifier: verifier,
  };
  const tokens = await form('/v3/oauth2/token', exchange);
  expect(tokens.status, tokens.text).toBe(200);
  return { clientId, exchange, tokens: tokens.body as { access_token: string; refresh_token: string } };
}

interface Entry {
  kind: string;
  action: string;
  actor: { name: string };
  connector: { client: string | null; member: string | null } | null;
  changes: { reason?: string } | null;
}
const entries = (res: Res) =>
  (portalData(res).data as Entry[]).map((e) => [
    e.kind,
    e.action,
    e.connector?.client,
    e.connector?.member,
    e.actor.name,
    e.changes?.reason ?? null,
  ]);

/** An admin of the clinic, by name, signed in to the portal. */
async function signedInAdmin(name: string) {
  const email = `${uniqueName('admin')}@example.test`;
  const member = await createMember(t.server.app.db, t.clinic.account, system, {
    name,
    email,
    role: 'admin',
    password: PASSWORD,
  });
  const portal = portalClient(t.server, t.clinic);
  expect((await portal.signIn(email, PASSWORD)).status).toBe(200);
  return { id: member.id, portal };
}

let admin: PortalClient;
let other: { id: number; portal: PortalClient };

beforeAll(async () => {
  admin = (await signedInAdmin('Ada Admin')).portal;
  other = await signedInAdmin('Mo Member');
});

test('approvals and every kind of revocation are in the activity log, filterable as connectors, with the app and the member', async () => {
  const member = 'Ada Admin';
  // Revoked by the app itself (RFC 7009, its refresh token).
  const byApp = await connect(admin, 'Revoking App');
  expect(
    (await form('/v3/oauth2/revoke', { token: byApp.tokens.refresh_token, client_id: byApp.clientId })).status,
  ).toBe(200);
  // Revoked by the server: a refresh token presented twice.
  const refreshed = await connect(admin, 'Replayed Refresh');
  const refresh = {
    grant_type: 'refresh_token',
    refresh_token: refreshed.tokens.refresh_token,
    client_id: refreshed.clientId,
  };
  expect((await form('/v3/oauth2/token', refresh)).status).toBe(200);
  expect((await form('/v3/oauth2/token', refresh)).body.error).toBe('invalid_grant');
  // Revoked by the server: an authorization code exchanged twice.
  const replayedCode = await connect(admin, 'Replayed Code');
  expect((await form('/v3/oauth2/token', replayedCode.exchange)).body.error).toBe('invalid_grant');
  // Revoked in the portal.
  await connect(admin, 'Portal Revoked');
  const listed = portalData(await admin.query('connectors.list')).data as { id: number; client_name: string }[];
  const inPortal = listed.find((c) => c.client_name === 'Portal Revoked')!;
  expect((await admin.mutate('connectors.revoke', { id: inPortal.id })).status).toBe(200);
  // Revoked by deactivating the member who connected it.
  await connect(other.portal, 'Deactivated Member App');
  await setActive(t.server.app.db, t.clinic.account, system, other.id, false);

  const connectors = await admin.query('activity.list', { kind: 'connectors' });
  expect(connectors.status, connectors.text).toBe(200);
  const C = 'connectors';
  expect(entries(connectors).reverse()).toEqual([
    [C, 'approved', 'Revoking App', member, member, null],
    [C, 'revoked', 'Revoking App', member, 'Revoking App', 'revoked by the client'],
    [C, 'approved', 'Replayed Refresh', member, member, null],
    [C, 'revoked', 'Replayed Refresh', member, 'OAuth token reuse detection', 'refresh token reused'],
    [C, 'approved', 'Replayed Code', member, member, null],
    [C, 'revoked', 'Replayed Code', member, 'OAuth token reuse detection', 'authorization code reused'],
    [C, 'approved', 'Portal Revoked', member, member, null],
    [C, 'revoked', 'Portal Revoked', member, member, 'revoked in the portal'],
    [C, 'approved', 'Deactivated Member App', 'Mo Member', 'Mo Member', null],
    [C, 'revoked', 'Deactivated Member App', 'Mo Member', 'test', 'member deactivated'],
  ]);
  // Unfiltered, they are in the log with everything else.
  const everything = entries(await admin.query('activity.list', {}));
  expect(everything.filter(([kind]) => kind === C)).toEqual(entries(connectors));
});

test('an app is shown as an app acting for its member, whatever name it registered; Connect AI apps alone shows and revokes only one’s own', async () => {
  // An app registered under a member's name cannot pass for the member in the log.
  const impostor = await connect(admin, 'Ada Admin');
  expect(
    (await form('/v3/oauth2/revoke', { token: impostor.tokens.refresh_token, client_id: impostor.clientId })).status,
  ).toBe(200);
  const log = portalData(await admin.query('activity.list', { kind: 'connectors' })).data as { summary: string }[];
  expect(log[0].summary).toBe(
    'Ada Admin (AI app) on behalf of Ada Admin disconnected the AI app “Ada Admin” of Ada Admin (revoked by the client)',
  );

  // A receptionist given Connect AI apps (not Manage everyone's AI apps) sees and revokes only their own.
  await admin.mutate('team.updateRole', {
    key: 'receptionist',
    permissions: ['connectors.manage', 'patients.read'],
    record_scope: 'all',
  });
  const email = `${uniqueName('desk')}@example.test`;
  await createMember(t.server.app.db, t.clinic.account, system, {
    name: 'Rae Desk',
    email,
    role: 'receptionist',
    password: PASSWORD,
  });
  const desk = portalClient(t.server, t.clinic);
  expect((await desk.signIn(email, PASSWORD)).status).toBe(200);
  await connect(desk, 'Desk Helper');
  await connect(admin, 'Admin Helper');
  const mine = portalData(await desk.query('connectors.list'));
  expect(mine.everyone).toBe(false);
  expect(mine.data.map((c: { client_name: string }) => c.client_name)).toEqual(['Desk Helper']);
  const all = portalData(await admin.query('connectors.list'));
  expect(all.everyone).toBe(true);
  const adminsApp = all.data.find((c: { client_name: string }) => c.client_name === 'Admin Helper');
  expect((await desk.mutate('connectors.revoke', { id: adminsApp.id })).status).toBe(404);
  expect(portalData(await admin.query('connectors.list')).data.some((c: { id: number }) => c.id === adminsApp.id)).toBe(
    true,
  );
  expect((await desk.mutate('connectors.revoke', { id: mine.data[0].id })).status).toBe(200);
});
