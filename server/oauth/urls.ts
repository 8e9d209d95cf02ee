/** The addresses of one clinic's authorization server and MCP resource, from the clinic's origin. */
export const MCP_PATH = '/v3/api/mcp';
export const OAUTH_PREFIX = '/v3/oauth2';
/** What a connector may be granted: reading through the MCP tools (the server is read-only at present). */
export const SCOPES = ['mcp:read'] as const;
export const DEFAULT_SCOPE = 'mcp:read';

export interface OAuthUrls {
  issuer: string;
  authorize: string;
  token: string;
  register: string;
  revoke: string;
  /** The MCP server: the resource indicator (RFC 8707) tokens are bound to. */
  resource: string;
  /** Its protected-resource metadata (RFC 9728). */
  resourceMetadata: string;
}

export function oauthUrls(origin: string): OAuthUrls {
  return {
    issuer: origin,
    authorize: `${origin}${OAUTH_PREFIX}/authorize`,
    token: `${origin}${OAUTH_PREFIX}/token`,
    register: `${origin}${OAUTH_PREFIX}/register`,
    revoke: `${origin}${OAUTH_PREFIX}/revoke`,
    resource: `${origin}${MCP_PATH}`,
    resourceMetadata: `${origin}/.well-known/oauth-protected-resource${MCP_PATH}`,
  };
}

/**
 * A resource indicator compared canonically (RFC 8707 / RFC 3986): scheme and host case-insensitive,
 * default port dropped, one trailing slash ignored; no fragment. Null when it is not an absolute URL.
 */
export function canonicalResource(raw: string): string | null {
  try {
    const u = new URL(raw);
    if (u.hash) return null;
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/$/, '')}${u.search}`;
  } catch {
    return null;
  }
}

/** The RFC 8414 authorization-server metadata. */
export function authorizationServerMetadata(u: OAuthUrls) {
  return {
    issuer: u.issuer,
    authorization_endpoint: u.authorize,
    token_endpoint: u.token,
    registration_endpoint: u.register,
    revocation_endpoint: u.revoke,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${u.issuer}/developers/reference`,
  };
}

/** The RFC 9728 protected-resource metadata of the MCP server. */
export function protectedResourceMetadata(u: OAuthUrls) {
  return {
    resource: u.resource,
    authorization_servers: [u.issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Clinic API MCP server',
    resource_documentation: `${u.issuer}/developers/reference`,
  };
}
