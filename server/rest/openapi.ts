/**
 * The OpenAPI 3.1 document, generated once from the router by trpc-to-openapi and then corrected to
 * what the gateway really does: success statuses (201/204), our error body and codes, rate-limit and
 * request-id headers, Idempotency-Key on POST, and the filter grammar.
 */
import { generateOpenApiDocument } from 'trpc-to-openapi';
import { ERROR_STATUS } from '../errors';
import { appRouter } from '../routers';
import type { RouteTable } from './routes';

type Json = Record<string, unknown>;

const errorSchema = {
  type: 'object',
  required: ['message', 'code'],
  properties: {
    message: { type: 'string', description: 'Human-readable; may change; do not parse' },
    code: { type: 'string', enum: Object.keys(ERROR_STATUS), description: 'Stable snake_case machine code' },
    errors: {
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string' } },
      description: 'Attribute name → problems; present on input problems',
    },
  },
};

const header = (description: string, type = 'string') => ({ description, schema: { type } });
const commonHeaders = {
  'X-Request-Id': header('Unique id of this request; quote it when reporting a problem'),
  'X-RateLimit-Limit': header('Requests allowed per minute in this bucket', 'integer'),
  'X-RateLimit-Remaining': header('Requests left in the current minute', 'integer'),
};

const errorResponse = (description: string, extraHeaders: Json = {}) => ({
  description,
  headers: { ...commonHeaders, ...extraHeaders },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function errorsFor(method: string, protect: boolean, hasId: boolean, isList: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    '404': errorResponse(hasId ? 'No such record on this account (not_found)' : 'Unknown clinic host (not_found)'),
    '429': errorResponse('Rate limit exceeded (rate_limited)', { 'Retry-After': header('Seconds until the bucket has room', 'integer') }),
    '500': errorResponse('Server error; retry with backoff (internal_error)'),
    '503': errorResponse('No answer within REQUEST_TIMEOUT_MS (request_timeout); the connection is closed. Retry with backoff; a POST with the same Idempotency-Key is safe to retry'),
  };
  if (protect) out['401'] = errorResponse('No, invalid, expired or revoked key (unauthenticated)', { 'WWW-Authenticate': header('Bearer') });
  if (method !== 'get') {
    out['403'] = errorResponse('Read-only key on a write (key_read_only)');
    out['409'] = errorResponse('Business rule refused, or Idempotency-Key in flight');
    out['415'] = errorResponse('Body is not JSON (unsupported_media_type)');
    out['413'] = errorResponse('Body too large (payload_too_large)');
  }
  if (method !== 'get' || isList || hasId) out['422'] = errorResponse('Invalid input: validation_failed or a *_not_found / domain code; see errors');
  out['405'] = errorResponse('Method not valid for this path (method_not_allowed) or operation not supported by the resource (unsupported_operation)', {
    Allow: header('Methods the path supports'),
  });
  return out;
}

export function buildOpenApiDocument(routes: RouteTable): Json {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Clinic API',
    version: '3.0.0',
    openApiVersion: '3.1.0',
    baseUrl: 'https://{clinic}.{region}.example.com/v3/api',
    description:
      'Multi-tenant practice-management API. Each clinic is addressed by its own host; authenticate with `Authorization: Bearer <API_KEY>`. ' +
      'Lists take `?attribute=operator:value` filters, `sort`, and offset (`page`, `page_size`) or cursor (`cursor`) paging. See GET /schema/{resource}.',
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key created under Developers → API Keys. Revocation is immediate on the server process that revoked the key and takes effect on every other process within one second (successful key lookups are cached that long); a rotated key\'s previous secret keeps working for 24 hours.' } },
  }) as unknown as Json;
  doc.servers = [
    {
      url: 'https://{clinic}.{region}.{domain}/v3/api',
      variables: {
        clinic: { default: 'demo', description: 'Clinic subdomain' },
        region: { default: 'neptune', enum: ['neptune', 'mercury', 'vulcan', 'jupiter', 'apollo'] },
        domain: { default: 'localhost' },
      },
    },
  ];
  const components = (doc.components ??= {}) as Json;
  components.schemas = { ...((components.schemas as Json) ?? {}), Error: errorSchema };
  const paths = doc.paths as Record<string, Record<string, Json>>;
  for (const route of routes.routes) {
    const op = paths[route.path]?.[route.method.toLowerCase()];
    if (!op) continue;
    const responses = op.responses as Record<string, Json>;
    const ok = responses['200'];
    delete responses['200'];
    for (const code of Object.keys(responses)) if (code !== 'default') delete responses[code];
    delete responses.default;
    if (route.status === 204) responses['204'] = { description: 'Done; no body', headers: commonHeaders };
    else responses[String(route.status)] = { ...ok, headers: { ...commonHeaders, ...((ok?.headers as Json) ?? {}) } };
    if (route.method === 'POST' && route.protect) {
      (responses[String(route.status)].headers as Json)['Idempotent-Replayed'] = header('true when this response replays an earlier request with the same Idempotency-Key');
      op.parameters = [
        ...((op.parameters as Json[]) ?? []),
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Any unique string up to 255 characters; a retry within 24 hours replays the first response',
          schema: { type: 'string', maxLength: 255 },
        },
      ];
    }
    if (route.multipart) {
      const schema = (op.requestBody as { content: Record<string, { schema: { properties: Record<string, Json> } }> }).content['multipart/form-data'].schema;
      schema.properties.file = { type: 'string', format: 'binary', description: 'The file; its content type is read from the bytes' };
      schema.properties.patient_viewable = { type: 'string', enum: ['true', 'false'] };
    }
    if (route.binary) {
      const ok = responses['200'];
      ok.description = 'The bytes, with the content type read at upload';
      ok.content = { '*/*': { schema: { type: 'string', format: 'binary' } } };
      (ok.headers as Json)['Content-Disposition'] = header('attachment; filename="…"');
    }
    const isList = route.method === 'GET' && !route.path.includes('{') && route.procedurePath.endsWith('.list');
    Object.assign(responses, errorsFor(route.method.toLowerCase(), route.protect, route.path.includes('{'), isList));
    if (isList) {
      op.parameters = [
        ...((op.parameters as Json[]) ?? []),
        {
          name: 'metadata[key]',
          in: 'query',
          required: false,
          description: 'Filter on a metadata key: metadata[key]=operator:value; numeric operands compare numerically',
          schema: { type: 'string' },
        },
      ];
    }
  }
  return doc;
}
