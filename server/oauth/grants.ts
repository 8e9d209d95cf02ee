/**
 * The authorization-code flow of one clinic: checking an authorization request, a member's approval
 * (a grant and a single-use code), the code exchange and refresh rotation, revocation, and the access
 * token check behind the MCP server. Tokens are opaque random strings stored as SHA-256 digests.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db, DbHandle } from '../../db/client';
import { oauthClients, oauthCodes, oauthGrants, oauthTokens, users } from '../../db/schema';
import { can } from '../auth/permissions';
import { hashSecret } from '../auth/keys';
import type { Account, MemberPrincipal } from '../context';
import { activeMember } from '../auth/members';
import { ApiError } from '../errors';
import { recordActivity, type Actor } from '../events/record';
import { findClient, redirectAllowed, type Client, type ClientLog } from './clients';
import { OAuthFailure } from './errors';
import { clientActor, MEMBER_DEACTIVATED, REUSE_DETECTION, revokeGrantTx } from './revocation';
import { canonicalResource, DEFAULT_SCOPE, SCOPES, type OAuthUrls } from './urls';

export const ACCESS_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_S = 30 * 86_400;
const CODE_TTL_S = 600;

const token = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;
const iso = (ms: number) => new Date(ms).toISOString();

/** An authorization request that may go to the consent screen. */
export interface AuthorizationRequest {
  client: Client;
  /** Where the answer goes: the redirect the request named, or the client's only one. */
  redirectUri: string;
  /** Whether the request named redirect_uri: the token request must then repeat it (RFC 6749 §4.1.3). */
  redirectNamed: boolean;
  state: string | null;
  codeChallenge: string;
  scope: string;
  resource: string;
}

/**
 * A request whose client or redirect cannot be trusted: shown to the person, never redirected (a
 * redirect to an unchecked URI would make the server an open redirector). Its OAuth error is always
 * invalid_request (the authorization endpoint's 400); the message names the problem.
 */
export class UntrustedRequest extends Error {}

/**
 * An error for a request whose redirect is trusted: sent back to the client at `redirectUri`, the
 * redirect the request named, checked against the client's registration.
 */
export class RedirectedError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly redirectUri: string,
  ) {
    super(description);
  }
}

/** The URL an answer goes back to: the redirect with the parameters, `state` and `iss` (RFC 9207). */
export function redirectWith(redirectUri: string, params: Record<string, string | null>, urls: OAuthUrls): string {
  let u: URL;
  try {
    u = new URL(redirectUri);
  } catch {
    // Unreachable for a checked request (registered redirects parse); never a redirect to nowhere.
    throw new UntrustedRequest('redirect_uri is not an absolute URI');
  }
  for (const [k, v] of Object.entries(params)) if (v !== null) u.searchParams.set(k, v);
  u.searchParams.set('iss', urls.issuer);
  return u.toString();
}

/** Whether anyone in this clinic has ever approved the client (a grant, revoked or not, that the sweep has not removed yet). */
export async function everApproved(db: DbHandle, accountId: number, clientId: string): Promise<boolean> {
  const [row] = await db.db
    .select({ id: oauthGrants.id })
    .from(oauthGrants)
    .where(and(eq(oauthGrants.account_id, accountId), eq(oauthGrants.client_id, clientId)))
    .limit(1);
  return row !== undefined;
}

/**
 * Checks an authorization request (its query parameters) against the client and this server.
 *
 * Errors go back to the client at its redirect (RFC 6749 §4.1.2.1) only when the client and the
 * redirect are trusted: the request named its redirect_uri, the client registered it, and someone in
 * this clinic has approved the client before. Anyone can register a client with any https redirect, so
 * without the last condition the endpoint would redirect to any address with no one's consent (an open
 * redirector); such errors are UntrustedRequest, shown on the authorization endpoint's 400 or the
 * consent page instead.
 */
export async function checkAuthorizationRequest(
  db: DbHandle,
  account: Account,
  urls: OAuthUrls,
  params: URLSearchParams,
  allowPrivate: boolean,
  log?: ClientLog,
): Promise<AuthorizationRequest> {
  const one = (name: string) => {
    const all = params.getAll(name);
    if (all.length > 1) throw new UntrustedRequest(`${name} is given more than once`);
    return all[0] ?? null;
  };
  const clientId = one('client_id');
  if (!clientId) throw new UntrustedRequest('client_id is missing');
  let client: Client | null;
  try {
    client = await findClient(db, account, clientId, { allowPrivate, log });
  } catch (err) {
    throw new UntrustedRequest(err instanceof OAuthFailure ? err.description : 'The client could not be identified');
  }
  if (!client) throw new UntrustedRequest('This app is not registered with this clinic');
  const asked = one('redirect_uri');
  const redirectUri = asked ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : null);
  if (!redirectUri) throw new UntrustedRequest('redirect_uri is missing');
  if (!redirectAllowed(client, redirectUri)) throw new UntrustedRequest('redirect_uri is not one the app registered');

  const state = one('state');
  const checked = (): AuthorizationRequest | [error: string, description: string] => {
    if (one('response_type') !== 'code') return ['unsupported_response_type', 'response_type must be code'];
    const challenge = one('code_challenge');
    if (!challenge || !/^[A-Za-z0-9_-]{43}$/.test(challenge))
      return ['invalid_request', 'PKCE is required: code_challenge (S256, 43 characters)'];
    if (one('code_challenge_method') !== 'S256') return ['invalid_request', 'code_challenge_method must be S256'];
    // MCP clients of revisions before 2025-06-18 send no resource indicator (RFC 8707): this clinic's
    // MCP server is the one resource tokens are issued for, so that is what they mean.
    const resource = one('resource') ?? urls.resource;
    if (canonicalResource(resource) !== canonicalResource(urls.resource))
      return ['invalid_target', `This server issues tokens for ${urls.resource} only`];
    const scope = (one('scope') ?? DEFAULT_SCOPE).split(' ').filter(Boolean);
    const unknown = scope.filter((s) => !(SCOPES as readonly string[]).includes(s));
    if (unknown.length) return ['invalid_scope', `Unknown scope ${unknown.join(', ')}; supported: ${SCOPES.join(' ')}`];
    return {
      client: client!,
      redirectUri,
      redirectNamed: asked !== null,
      state,
      codeChallenge: challenge,
      scope: (scope.length ? scope : [DEFAULT_SCOPE]).join(' '),
      resource: urls.resource,
    };
  };
  const result = checked();
  if (!Array.isArray(result)) return result;
  const [error, description] = result;
  if (asked === null)
    throw new UntrustedRequest(
      `${error}: ${description} (the request names no redirect_uri, so the error is shown here)`,
    );
  if (!(await everApproved(db, account.id, client.client_id)))
    throw new UntrustedRequest(
      `${error}: ${description} (this app has not been approved in this clinic yet, so the error is shown here)`,
    );
  throw new RedirectedError(error, description, asked);
}

/** The owner can always connect; others need Connect AI apps. */
export function mayConnect(member: MemberPrincipal): boolean {
  return can(member, 'connectors.manage');
}

const connectorRefused = () =>
  new ApiError(
    'connector_not_permitted',
    'Your role does not allow connecting AI apps: it needs the permission "Connect AI apps"',
  );

/** The member allows: a grant, a code, and the redirect that carries it. Recorded in the activity log. */
export async function approve(
  db: DbHandle,
  account: Account,
  member: MemberPrincipal,
  actor: Actor,
  req: AuthorizationRequest,
  urls: OAuthUrls,
  now = Date.now(),
): Promise<string> {
  if (!mayConnect(member)) throw connectorRefused();
  const code = token('clinic_oac_');
  await db.transaction(async (tx) => {
    const [grant] = await tx
      .insert(oauthGrants)
      .values({
        account_id: account.id,
        client_id: req.client.client_id,
        user_id: member.id,
        scope: req.scope,
        resource: req.resource,
        created_at: iso(now),
      })
      .returning({ id: oauthGrants.id });
    await tx.insert(oauthCodes).values({
      account_id: account.id,
      grant_id: grant.id,
      code_hash: hashSecret(code),
      redirect_uri: req.redirectNamed ? req.redirectUri : REDIRECT_NOT_NAMED,
      code_challenge: req.codeChallenge,
      expires_at: iso(now + CODE_TTL_S * 1000),
    });
    await recordActivity(tx, account.id, actor, 'connectors', grant.id, 'approved', {
      client: req.client.name,
      client_id: req.client.client_id,
      scope: req.scope,
    });
  });
  return redirectWith(req.redirectUri, { code, state: req.state }, urls);
}

export function denial(req: AuthorizationRequest, urls: OAuthUrls): string {
  return redirectWith(
    req.redirectUri,
    { error: 'access_denied', error_description: 'The clinic member denied access', state: req.state },
    urls,
  );
}

/** A new access and refresh token for a grant, in its transaction. */
async function issue(tx: Db, accountId: number, grantId: number, scope: string, now: number) {
  const access = token('clinic_oat_');
  const refresh = token('clinic_ort_');
  await tx.insert(oauthTokens).values([
    {
      account_id: accountId,
      grant_id: grantId,
      kind: 'access',
      token_hash: hashSecret(access),
      expires_at: iso(now + ACCESS_TOKEN_TTL_S * 1000),
      created_at: iso(now),
    },
    {
      account_id: accountId,
      grant_id: grantId,
      kind: 'refresh',
      token_hash: hashSecret(refresh),
      expires_at: iso(now + REFRESH_TOKEN_TTL_S * 1000),
      created_at: iso(now),
    },
  ]);
  return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_S, refresh_token: refresh, scope };
}

const invalidGrant = (why: string) => new OAuthFailure('invalid_grant', why);

/**
 * A code's redirect_uri when its authorization request named none (allowed when the client registered
 * exactly one). No redirect can be the empty string: a registered one is an absolute URI.
 */
const REDIRECT_NOT_NAMED = '';

/**
 * RFC 6749 §4.1.3: a redirect_uri the authorization request named must come again, identical. When it
 * named none, the token request may leave it out too, or name the client's registered redirect (some
 * libraries always send one, oauth4webapi among them).
 */
function redirectMatches(client: Client, stored: string, presented: string | null): boolean {
  if (stored !== REDIRECT_NOT_NAMED) return presented === stored;
  return presented === null || client.redirect_uris.includes(presented);
}
/** A replayed code or refresh token: the grant's revocation must commit before the refusal is thrown. */
const REUSED = Symbol('reused');

/** Whether the member behind a grant is still active and may still connect. */
async function grantMemberOk(tx: Db, accountId: number, userId: number): Promise<boolean> {
  const member = await activeMember(tx, accountId, userId);
  return member !== null && mayConnect(member);
}

/** authorization_code: single use (a second use revokes what the first issued), PKCE, same redirect and client. */
export async function exchangeCode(
  db: DbHandle,
  account: Account,
  client: Client,
  form: URLSearchParams,
  urls: OAuthUrls,
  now = Date.now(),
) {
  const code = form.get('code');
  const verifier = form.get('code_verifier');
  if (!code) throw new OAuthFailure('invalid_request', 'code is required');
  if (!verifier || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier))
    throw new OAuthFailure('invalid_request', 'code_verifier is required (43 to 128 characters)');
  const resource = form.get('resource');
  if (resource !== null && canonicalResource(resource) !== canonicalResource(urls.resource))
    throw new OAuthFailure('invalid_target', `This server issues tokens for ${urls.resource} only`);
  const issued = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ code: oauthCodes, grant: oauthGrants })
      .from(oauthCodes)
      .innerJoin(
        oauthGrants,
        and(eq(oauthGrants.account_id, oauthCodes.account_id), eq(oauthGrants.id, oauthCodes.grant_id)),
      )
      .where(and(eq(oauthCodes.code_hash, hashSecret(code)), eq(oauthCodes.account_id, account.id)));
    if (!row) throw invalidGrant('Unknown authorization code');
    const at = iso(now);
    if (row.code.used_at) {
      await revokeGrantTx(tx, account.id, REUSE_DETECTION, row.grant.id, 'authorization code reused', at);
      return REUSED;
    }
    await tx
      .update(oauthCodes)
      .set({ used_at: at })
      .where(and(eq(oauthCodes.account_id, account.id), eq(oauthCodes.id, row.code.id)));
    if (row.grant.client_id !== client.client_id) throw invalidGrant('The code was issued to another client');
    if (Date.parse(row.code.expires_at) <= now) throw invalidGrant('The authorization code expired');
    if (row.grant.revoked_at) throw invalidGrant('The grant was revoked');
    if (!redirectMatches(client, row.code.redirect_uri, form.get('redirect_uri')))
      throw invalidGrant('redirect_uri does not match the authorization request');
    if (createHash('sha256').update(verifier).digest('base64url') !== row.code.code_challenge)
      throw invalidGrant('code_verifier does not match the code_challenge');
    if (!(await grantMemberOk(tx, account.id, row.grant.user_id)))
      throw invalidGrant('The approving member can no longer connect AI apps');
    return issue(tx, account.id, row.grant.id, row.grant.scope, now);
  });
  if (issued === REUSED)
    throw invalidGrant('This authorization code was already used: the tokens it issued are revoked');
  return issued;
}

/**
 * refresh_token: rotated on every use; a used one presented again revokes the grant (it was stolen or
 * replayed), every token with it. The access tokens issued before a refresh live until their own expiry
 * (an hour at most): requests already in flight with them must not fail.
 */
export async function refreshTokens(
  db: DbHandle,
  account: Account,
  client: Client,
  form: URLSearchParams,
  now = Date.now(),
) {
  const presented = form.get('refresh_token');
  if (!presented) throw new OAuthFailure('invalid_request', 'refresh_token is required');
  const issued = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ token: oauthTokens, grant: oauthGrants })
      .from(oauthTokens)
      .innerJoin(
        oauthGrants,
        and(eq(oauthGrants.account_id, oauthTokens.account_id), eq(oauthGrants.id, oauthTokens.grant_id)),
      )
      .where(
        and(
          eq(oauthTokens.token_hash, hashSecret(presented)),
          eq(oauthTokens.account_id, account.id),
          eq(oauthTokens.kind, 'refresh'),
        ),
      );
    if (!row || row.grant.revoked_at) throw invalidGrant('Unknown or revoked refresh token');
    if (row.grant.client_id !== client.client_id) throw invalidGrant('The refresh token was issued to another client');
    const at = iso(now);
    if (row.token.used_at) {
      await revokeGrantTx(tx, account.id, REUSE_DETECTION, row.grant.id, 'refresh token reused', at);
      return REUSED;
    }
    if (Date.parse(row.token.expires_at) <= now) throw invalidGrant('The refresh token expired');
    if (!(await grantMemberOk(tx, account.id, row.grant.user_id)))
      throw invalidGrant('The approving member can no longer connect AI apps');
    const asked = form.get('scope');
    const granted = row.grant.scope.split(' ');
    if (asked && asked.split(' ').some((s) => !granted.includes(s)))
      throw new OAuthFailure('invalid_scope', 'A refresh cannot widen the grant');
    await tx
      .update(oauthTokens)
      .set({ used_at: at })
      .where(and(eq(oauthTokens.account_id, account.id), eq(oauthTokens.id, row.token.id)));
    return issue(tx, account.id, row.grant.id, asked ?? row.grant.scope, now);
  });
  if (issued === REUSED) throw invalidGrant('This refresh token was already used: the grant is revoked');
  return issued;
}

/** RFC 7009: an access token ends alone; a refresh token ends its grant. Unknown tokens are not an error. */
export async function revokeToken(db: DbHandle, account: Account, client: Client, presented: string, now = Date.now()) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ token: oauthTokens, grant: oauthGrants })
      .from(oauthTokens)
      .innerJoin(
        oauthGrants,
        and(eq(oauthGrants.account_id, oauthTokens.account_id), eq(oauthGrants.id, oauthTokens.grant_id)),
      )
      .where(and(eq(oauthTokens.token_hash, hashSecret(presented)), eq(oauthTokens.account_id, account.id)));
    if (!row || row.grant.client_id !== client.client_id) return;
    if (row.token.kind === 'access')
      await tx.delete(oauthTokens).where(and(eq(oauthTokens.account_id, account.id), eq(oauthTokens.id, row.token.id)));
    else await revokeGrantTx(tx, account.id, clientActor(client), row.grant.id, 'revoked by the client', iso(now));
  });
}

/** What an access token stands for: its grant, on this account, unexpired and unrevoked. */
export interface Connection {
  grantId: number;
  clientId: string;
  userId: number;
  scope: string[];
  resource: string;
  expiresAt: number;
}

/** What an access token is: a live connection, or a token of a grant its member's deactivation revoked, or nothing. */
export interface TokenLookup {
  connection: Connection | null;
  /** The member whose deactivation revoked the token's grant (the MCP server answers user_inactive while they stay inactive). */
  deactivatedUserId: number | null;
}

export async function lookupAccessToken(
  db: DbHandle,
  accountId: number,
  presented: string,
  now = Date.now(),
): Promise<TokenLookup> {
  const [row] = await db.db
    .select({ token: oauthTokens, grant: oauthGrants })
    .from(oauthTokens)
    .innerJoin(
      oauthGrants,
      and(eq(oauthGrants.account_id, oauthTokens.account_id), eq(oauthGrants.id, oauthTokens.grant_id)),
    )
    .where(
      and(
        eq(oauthTokens.token_hash, hashSecret(presented)),
        eq(oauthTokens.account_id, accountId),
        eq(oauthTokens.kind, 'access'),
      ),
    );
  if (!row || Date.parse(row.token.expires_at) <= now) return { connection: null, deactivatedUserId: null };
  if (row.grant.revoked_at)
    return {
      connection: null,
      deactivatedUserId: row.grant.revoked_reason === MEMBER_DEACTIVATED ? row.grant.user_id : null,
    };
  const connection = {
    grantId: row.grant.id,
    clientId: row.grant.client_id,
    userId: row.grant.user_id,
    scope: row.grant.scope.split(' '),
    resource: row.grant.resource,
    expiresAt: Date.parse(row.token.expires_at),
  };
  return { connection, deactivatedUserId: null };
}

export async function verifyAccessToken(
  db: DbHandle,
  accountId: number,
  presented: string,
  now = Date.now(),
): Promise<Connection | null> {
  return (await lookupAccessToken(db, accountId, presented, now)).connection;
}

/** When a connector was last used (the caller throttles: a write per call would cost every call). */
export async function touchGrant(db: DbHandle, accountId: number, grantId: number, now = Date.now()) {
  await db.transaction((tx) =>
    tx
      .update(oauthGrants)
      .set({ last_used_at: iso(now) })
      .where(and(eq(oauthGrants.account_id, accountId), eq(oauthGrants.id, grantId))),
  );
}

/** The account's connectors (unrevoked grants), newest first, for the portal. */
/** The account's live connectors, or one member's. */
export async function listConnectors(db: DbHandle, accountId: number, userId?: number) {
  return db.db
    .select({
      id: oauthGrants.id,
      client_id: oauthGrants.client_id,
      client_name: oauthClients.name,
      user_id: oauthGrants.user_id,
      member: users.name,
      scope: oauthGrants.scope,
      created_at: oauthGrants.created_at,
      last_used_at: oauthGrants.last_used_at,
    })
    .from(oauthGrants)
    .innerJoin(
      oauthClients,
      and(eq(oauthClients.account_id, oauthGrants.account_id), eq(oauthClients.client_id, oauthGrants.client_id)),
    )
    .innerJoin(users, and(eq(users.account_id, oauthGrants.account_id), eq(users.id, oauthGrants.user_id)))
    .where(
      and(
        eq(oauthGrants.account_id, accountId),
        isNull(oauthGrants.revoked_at),
        userId === undefined ? undefined : eq(oauthGrants.user_id, userId),
      ),
    )
    .orderBy(oauthGrants.id);
}

/** A member revokes a connector in the portal (only `onlyOf`'s, when given): its tokens stop working at once. */
export async function revokeConnector(
  db: DbHandle,
  account: Account,
  actor: Actor,
  grantId: number,
  now = Date.now(),
  onlyOf?: number,
) {
  await db.transaction(async (tx) => {
    const [grant] = await tx
      .select()
      .from(oauthGrants)
      .where(and(eq(oauthGrants.account_id, account.id), eq(oauthGrants.id, grantId), isNull(oauthGrants.revoked_at)));
    if (!grant || (onlyOf !== undefined && grant.user_id !== onlyOf))
      throw new ApiError('not_found', 'Connector not found');
    await revokeGrantTx(tx, account.id, actor, grant.id, 'revoked in the portal', iso(now));
  });
}
