/**
 * OAuth clients of a clinic: registered (RFC 7591) or described by a Client ID Metadata Document (a
 * URL-shaped client_id, fetched through the webhook SSRF guard, bounded in size and time, cached per
 * its Cache-Control). Redirect URIs match exactly, but for loopback redirects any port (RFC 8252).
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { DbHandle } from '../../db/client';
import { oauthClients } from '../../db/schema';
import type { Account } from '../context';
import { hashSecret, sameDigest } from '../auth/keys';
import { send } from '../outbound';
import { OAuthFailure } from './errors';

export type Client = typeof oauthClients.$inferSelect;
export type AuthMethod = Client['token_endpoint_auth_method'];

const METADATA_MAX_BYTES = 5 * 1024;
const METADATA_TIMEOUT_MS = 5000;
const METADATA_CACHE_DEFAULT_S = 3600;
const METADATA_CACHE_MAX_S = 86_400;
/** Schemes a redirect may never use, whatever a client registers. */
const FORBIDDEN_SCHEMES = new Set([
  'javascript:',
  'data:',
  'file:',
  'vbscript:',
  'about:',
  'blob:',
  'ftp:',
  'ws:',
  'wss:',
]);
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A URL, or null when the text is not one (new URL throws). */
function parsed(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/** Why a redirect URI cannot be registered, or null: https, http on loopback, or an app's own scheme. */
export function redirectUriProblem(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return `${raw.slice(0, 100)} is not an absolute URI`;
  }
  if (u.hash) return 'a redirect URI has no fragment';
  if (FORBIDDEN_SCHEMES.has(u.protocol)) return `the ${u.protocol} scheme is not allowed`;
  if (u.protocol === 'http:' && !LOOPBACK.has(u.hostname))
    return 'http is allowed for loopback redirects only (localhost, 127.0.0.1, [::1])';
  return null;
}

const redirectUris = z.array(z.string().max(2000)).min(1).max(20);
const registration = z.object({
  redirect_uris: redirectUris,
  client_name: z.string().max(200).optional(),
  token_endpoint_auth_method: z.enum(['none', 'client_secret_post', 'client_secret_basic']).optional(),
  grant_types: z.array(z.string()).max(10).optional(),
  response_types: z.array(z.string()).max(10).optional(),
  scope: z.string().max(500).optional(),
});

function checkMetadata(input: unknown): z.infer<typeof registration> {
  const parsed = registration.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.join('.') || 'body';
    throw new OAuthFailure(
      field.startsWith('redirect_uris') ? 'invalid_redirect_uri' : 'invalid_client_metadata',
      `${field}: ${issue.message}`,
    );
  }
  const m = parsed.data;
  for (const uri of m.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthFailure('invalid_redirect_uri', problem);
  }
  const grants = m.grant_types ?? ['authorization_code'];
  const unsupported = grants.filter((g) => g !== 'authorization_code' && g !== 'refresh_token');
  if (unsupported.length)
    throw new OAuthFailure(
      'invalid_client_metadata',
      `grant_types: only authorization_code and refresh_token are supported (not ${unsupported.join(', ')})`,
    );
  if (m.response_types && m.response_types.some((r) => r !== 'code'))
    throw new OAuthFailure('invalid_client_metadata', 'response_types: only code is supported');
  return m;
}

/** RFC 7591 registration. Every call registers a new client: a client registering twice simply gets two. */
export async function registerClient(db: DbHandle, account: Account, body: unknown, now = Date.now()) {
  const m = checkMetadata(body);
  const method: AuthMethod = m.token_endpoint_auth_method ?? 'client_secret_basic';
  const clientId = `clinic_oc_${randomBytes(16).toString('base64url')}`;
  const secret = method === 'none' ? null : `clinic_ocs_${randomBytes(32).toString('base64url')}`;
  const at = new Date(now).toISOString();
  const name = m.client_name?.trim() || 'Unnamed AI app';
  await db.transaction((tx) =>
    tx.insert(oauthClients).values({
      account_id: account.id,
      client_id: clientId,
      secret_hash: secret && hashSecret(secret),
      name,
      redirect_uris: m.redirect_uris,
      token_endpoint_auth_method: method,
      kind: 'registered',
      created_at: at,
    }),
  );
  return {
    client_id: clientId,
    client_id_issued_at: Math.floor(now / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    client_name: name,
    redirect_uris: m.redirect_uris,
    token_endpoint_auth_method: method,
    grant_types: m.grant_types ?? ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
}

/** A client_id that names a metadata document: an https URL with a path (the CIMD draft). */
export function isMetadataDocumentId(clientId: string): boolean {
  try {
    const u = new URL(clientId);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.pathname.length > 1 && !u.hash;
  } catch {
    return false;
  }
}

function cacheSeconds(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  if (/no-store|no-cache/.test(value)) return 0;
  const maxAge = /max-age=(\d+)/.exec(value);
  return Math.min(maxAge ? Number(maxAge[1]) : METADATA_CACHE_DEFAULT_S, METADATA_CACHE_MAX_S);
}

/** Where the reason a metadata document was refused goes (the caller's logger): never to the client. */
export type ClientLog = (detail: Record<string, unknown>, message: string) => void;

/**
 * The one answer for a metadata document that could not be fetched or is not a client metadata
 * document for its URL. The detail (a status, a network error, "not JSON") would tell whoever names a
 * URL what that URL answers the server, an oracle; it goes to the log instead.
 */
export const METADATA_UNUSABLE = `The client's metadata document could not be used: it must be served at its client_id URL over https, as a JSON object of at most ${METADATA_MAX_BYTES} bytes, with status 200 and a client_id equal to that URL`;

/**
 * Fetches and checks a Client ID Metadata Document, and keeps it for as long as its headers allow.
 * Every failure to fetch, to parse, or to find a JSON object naming this URL as its client_id gets
 * METADATA_UNUSABLE (the detail is logged, never the body); the specific messages of the metadata
 * checks are kept for a document that names itself, since its author meant it for this server.
 */
async function fetchMetadataDocument(
  db: DbHandle,
  account: Account,
  clientId: string,
  allowPrivate: boolean,
  now: number,
  log?: ClientLog,
): Promise<Client> {
  if (!allowPrivate && !clientId.startsWith('https://'))
    throw new OAuthFailure('invalid_client', 'A client_id metadata document must be served over https');
  const unusable = (detail: Record<string, unknown>) => {
    log?.({ client_id: clientId.slice(0, 300), ...detail }, 'client metadata document refused');
    return new OAuthFailure('invalid_client', METADATA_UNUSABLE);
  };
  const got = await send(
    clientId,
    '',
    { accept: 'application/json', 'user-agent': 'ClinicAPI-OAuth/1.0' },
    { method: 'GET', timeoutMs: METADATA_TIMEOUT_MS, allowPrivate, keepBytes: METADATA_MAX_BYTES + 1 },
  );
  if (got.status !== 200 || got.body === null) throw unusable({ status: got.status, error: got.error });
  if (Buffer.byteLength(got.body) > METADATA_MAX_BYTES)
    throw unusable({ status: got.status, reason: `larger than ${METADATA_MAX_BYTES} bytes` });
  let doc: unknown;
  try {
    doc = JSON.parse(got.body);
  } catch {
    throw unusable({ status: got.status, reason: 'not JSON' });
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw unusable({ status: got.status, reason: 'not a JSON object' });
  if ((doc as { client_id?: unknown }).client_id !== clientId)
    throw unusable({ status: got.status, reason: 'its client_id is not the URL it was fetched from' });
  const m = checkMetadata({ ...(doc as Record<string, unknown>), client_id: undefined });
  if (m.token_endpoint_auth_method && m.token_endpoint_auth_method !== 'none')
    throw new OAuthFailure(
      'invalid_client',
      'A metadata-document client authenticates with token_endpoint_auth_method none',
    );
  const at = new Date(now).toISOString();
  const values = {
    name: m.client_name?.trim() || new URL(clientId).host,
    redirect_uris: m.redirect_uris,
    expires_at: new Date(now + cacheSeconds(got.headers?.['cache-control']) * 1000).toISOString(),
  };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(oauthClients)
      .values({
        account_id: account.id,
        client_id: clientId,
        secret_hash: null,
        token_endpoint_auth_method: 'none',
        kind: 'metadata_document',
        created_at: at,
        ...values,
      })
      .onConflictDoUpdate({ target: [oauthClients.account_id, oauthClients.client_id], set: values })
      .returning();
    return row;
  });
}

/** The client behind a client_id on this account (a metadata document is fetched when not cached), or null. */
export async function findClient(
  db: DbHandle,
  account: Account,
  clientId: string,
  opts: { allowPrivate: boolean; now?: number; log?: ClientLog },
): Promise<Client | null> {
  if (!clientId || clientId.length > 2000) return null;
  const now = opts.now ?? Date.now();
  const [row] = await db.db
    .select()
    .from(oauthClients)
    .where(and(eq(oauthClients.account_id, account.id), eq(oauthClients.client_id, clientId)));
  if (row && (row.kind === 'registered' || (row.expires_at && Date.parse(row.expires_at) > now))) return row;
  if (!isMetadataDocumentId(clientId)) return row ?? null;
  return fetchMetadataDocument(db, account, clientId, opts.allowPrivate, now, opts.log);
}

/** Exact match, except that a loopback redirect may use any port (native apps pick one at run time). */
export function redirectAllowed(client: Client, uri: string): boolean {
  if (client.redirect_uris.includes(uri)) return true;
  let asked: URL;
  try {
    asked = new URL(uri);
  } catch {
    return false;
  }
  if (asked.protocol !== 'http:' || !LOOPBACK.has(asked.hostname)) return false;
  return client.redirect_uris.some((r) => {
    const known = parsed(r);
    return (
      known !== null &&
      known.protocol === 'http:' &&
      known.hostname === asked.hostname &&
      known.pathname === asked.pathname &&
      known.search === asked.search
    );
  });
}

/**
 * Client authentication at the token and revocation endpoints: a public client names itself, a
 * confidential one proves its secret (Basic or in the form).
 * Secrets compare in constant time (their SHA-256 digests).
 */
export async function authenticateClient(
  db: DbHandle,
  account: Account,
  form: URLSearchParams,
  authorization: string | undefined,
  allowPrivate: boolean,
  log?: ClientLog,
): Promise<Client> {
  let clientId = form.get('client_id');
  let secret = form.get('client_secret');
  if (authorization !== undefined && /^Basic /i.test(authorization)) {
    const malformed = () =>
      new OAuthFailure(
        'invalid_client',
        'Malformed Basic credentials: base64 of client_id:client_secret, each form-urlencoded (RFC 6749 §2.3.1)',
        401,
        { 'WWW-Authenticate': 'Basic realm="clinic-api"' },
      );
    const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i < 0) throw malformed();
    // Each part is percent-encoded (RFC 6749 §2.3.1): a bad escape is the client's error, not a 500.
    const unescape = (v: string) => {
      try {
        return decodeURIComponent(v);
      } catch {
        throw malformed();
      }
    };
    clientId = unescape(decoded.slice(0, i));
    secret = unescape(decoded.slice(i + 1));
  }
  if (!clientId) throw new OAuthFailure('invalid_client', 'client_id is required', 401);
  const client = await findClient(db, account, clientId, { allowPrivate, log }).catch(() => null);
  if (!client) throw new OAuthFailure('invalid_client', 'Unknown client', 401);
  const method = client.token_endpoint_auth_method;
  if (method === 'none') return client;
  // Either secret method is accepted for a confidential client: clients differ in what they send.
  if (!secret || !client.secret_hash) {
    throw new OAuthFailure('invalid_client', `This client authenticates with ${method}`, 401, {
      'WWW-Authenticate': 'Basic realm="clinic-api"',
    });
  }
  if (!sameDigest(hashSecret(secret), client.secret_hash))
    throw new OAuthFailure('invalid_client', 'Wrong client secret', 401, {
      'WWW-Authenticate': 'Basic realm="clinic-api"',
    });
  return client;
}
