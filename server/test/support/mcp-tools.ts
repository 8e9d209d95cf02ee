/**
 * Calling the MCP tools as a member, for tests: in-process through the Connector the endpoint builds,
 * or over the real MCP endpoint with an access token the member approved. Either way a call answers
 * the tool's structured result or the REST error code it failed with.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { users } from '../../../db/schema';
import type { Permission } from '../../auth/permissions';
import type { MemberPrincipal } from '../../context';
import { activeMember } from '../../auth/members';
import { updateRole } from '../../domain/team';
import { ApiError } from '../../errors';
import type { Connector } from '../../mcp/connector';
import { TOOLS } from '../../mcp/tools';
import { findClient, registerClient } from '../../oauth/clients';
import { approve, checkAuthorizationRequest, exchangeCode } from '../../oauth/grants';
import { oauthUrls } from '../../oauth/urls';
import type { Clinic, ClinicHarness, TestServer } from '../helpers';
import { hostFetch } from './host-fetch';
import { addMember } from './portal';

export type Rec = Record<string, unknown>;
/** A tool's answer: its structured result, or the REST error code it failed with. */
export type Outcome = { ok: true; data: Rec } | { ok: false; code: string };
export type Call = (name: string, args: Rec) => Promise<Outcome>;

const SYSTEM = { actor_type: 'system' as const, actor_id: null, actor_name: 'test' };
const REDIRECT = 'http://127.0.0.1:8765/callback';

/** The tools run in-process as the member, through the same Connector the MCP endpoint builds. */
export function connectorCall(t: ClinicHarness, member: MemberPrincipal): Call {
  const c: Connector = {
    db: t.server.app.db,
    account: t.clinic.account,
    member,
    baseUrl: `http://${t.clinic.host}/v3/api`,
    grantId: 0,
    clientId: 'test',
  };
  return async (name, args) => {
    const tool = TOOLS.find((x) => x.name === name)!;
    try {
      const out = await tool.run(c, tool.input.parse(args));
      expect(tool.output.safeParse(out).success, `${name} answers as its outputSchema says`).toBe(true);
      // As the endpoint sends it: JSON.
      return { ok: true, data: JSON.parse(JSON.stringify(out)) as Rec };
    } catch (err) {
      if (err instanceof ApiError) return { ok: false, code: err.code };
      throw err;
    }
  };
}

/**
 * An access token for the MCP server as a connector gets one: registration, the member's approval, the
 * code exchange (through the OAuth server's own functions).
 */
export async function accessToken(server: TestServer, clinic: Clinic, member: MemberPrincipal): Promise<string> {
  const { db } = server.app;
  const account = clinic.account;
  const urls = oauthUrls(`http://${clinic.host}`);
  const registered = await registerClient(db, account, {
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
    client_name: 'Test connector',
  });
  const verifier = randomBytes(32).toString('base64url');
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: registered.client_id,
    redirect_uri: REDIRECT,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: urls.resource,
    scope: 'mcp:read',
  });
  const req = await checkAuthorizationRequest(db, account, urls, params, true);
  const code = new URL(await approve(db, account, member, SYSTEM, req, urls)).searchParams.get('code')!;
  const client = (await findClient(db, account, registered.client_id, { allowPrivate: true }))!;
  return (
    await exchangeCode(
      db,
      account,
      client,
      new URLSearchParams({ code, code_verifier: verifier, redirect_uri: REDIRECT, resource: urls.resource }),
      urls,
    )
  ).access_token;
}

/** The tools over the real MCP endpoint, with an access token the member approved. */
export async function httpCall(t: ClinicHarness, member: MemberPrincipal): Promise<Call> {
  const token = await accessToken(t.server, t.clinic, member);
  const urls = oauthUrls(`http://${t.clinic.host}`);
  const mcp = new Client({ name: 'scope-test', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(urls.resource), {
      fetch: hostFetch(t.server),
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return async (name, args) => {
    const res = await mcp.callTool({ name, arguments: args });
    if (res.isError) return { ok: false, code: JSON.parse((res.content as { text: string }[])[0].text).code };
    return { ok: true, data: res.structuredContent as Rec };
  };
}

/** The structured result of a call that must succeed. */
export async function ok(call: Call, name: string, args: Rec): Promise<Rec> {
  const out = await call(name, args);
  if (!out.ok) throw new Error(`${name} ${JSON.stringify(args)} failed: ${out.code}`);
  return out.data;
}

/**
 * A new member of `role` after the role is given these permissions and record scope (every member of
 * the role gets them), linked to a practitioner or not.
 */
export async function memberWith(
  t: ClinicHarness,
  role: 'practitioner' | 'receptionist',
  permissions: Permission[],
  scope: MemberPrincipal['record_scope'],
  linkTo: number | null,
) {
  await updateRole(t.server.app.db, t.clinic.account, SYSTEM, role, { permissions, record_scope: scope });
  const added = await addMember(t.server, t.clinic, role);
  if (linkTo !== null)
    await t.server.app.db.transaction((tx) =>
      tx.update(users).set({ practitioner_id: linkTo }).where(eq(users.id, added.id)),
    );
  return (await activeMember(t.server.app.db.db, t.clinic.account.id, added.id))!;
}
