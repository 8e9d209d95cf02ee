/**
 * The OpenAPI 3.1 document, generated once from the router by trpc-to-openapi and then corrected to
 * what the gateway really does: success statuses (201/204), our error body and codes, rate-limit and
 * request-id headers, Idempotency-Key on POST, and the filter grammar.
 */
import { generateOpenApiDocument } from 'trpc-to-openapi';
import { ERROR_STATUS } from '../errors';
import { PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../list/engine';
import { AVAILABILITY_DESCRIPTION } from '../resources/availability';
import { filterOperators } from '../resources/describe';
import type { Resource } from '../resources/define';
import type { Field } from '../resources/fields';
import { RESOURCES } from '../resources';
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
    const example = EXAMPLES[`${route.method} ${route.path}`];
    if (example) ((op.requestBody as { content: Record<string, Json> }).content['application/json'] as Json).example = example;
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
    const listed = isList ? resourceOf(route.path.slice(1)) : undefined;
    if (listed) describeListParameters(op, listed);
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
  declareTags(doc, paths);
  dropUnusedSchemas(doc);
  return doc;
}

/** Request examples for the main writes (the README's curl lines), shown by documentation tools. */
const EXAMPLES: Record<string, Json> = {
  'POST /patients': { first_name: 'Ada', last_name: 'Lovelace', dob: '1985-12-10', email: 'ada@example.com', numbers: [{ number: '07700 900123', type: 'mobile' }], address: { line_1: '12 St James Square', city: 'London', postal_code: 'SW1Y 4JH', country: 'GB' }, metadata: { crm_id: 'A-1001' } },
  'PATCH /patients/{id}': { preferred_name: 'Ada', metadata: { crm_id: null } },
  'POST /appointments': { patient_id: 1, practitioner_id: 1, location_id: 1, appointment_type_id: 2, starts_at: '2027-01-11T09:00:00', notes: 'Left knee' },
  'POST /invoices': { patient_id: 1, line_items: [{ billable_item_id: 1, quantity: 1 }] },
  'POST /payments': { patient_id: 1, payment_method_id: 2, amount: '75.00', allocations: [{ invoice_id: 1, amount: '75.00' }] },
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  utility: 'Liveness, the calling key and its account, and schema discovery (GET /schema/{resource} describes every resource as data).',
  availability: AVAILABILITY_DESCRIPTION,
};

/** Every tag an operation uses, declared with its resource's description; operations without one get it. */
function declareTags(doc: Json, paths: Record<string, Record<string, Json>>) {
  const used = new Set<string>();
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = (op.tags as string[] | undefined)?.[0];
      if (tag) used.add(tag);
      if (!op.description) op.description = operationDescription(method, path, tag);
    }
  }
  doc.tags = [...used].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? resourceOf(name)?.description ?? name }));
  (doc.info as Json).contact = { name: 'Clinic API team', email: 'api@example.com' };
}

const resourceOf = (name: string | undefined): Resource | undefined => (name && Object.hasOwn(RESOURCES, name) ? RESOURCES[name] : undefined);

function operationDescription(method: string, path: string, tag: string | undefined): string {
  const r = resourceOf(tag);
  const what = r ? `${r.singular}` : 'record';
  const action = path.match(/\/\{id\}\/(\w+)$/)?.[1];
  if (action) return `${action[0].toUpperCase()}${action.slice(1)} one ${what}; see GET /schema/${tag} for the states it moves between.`;
  if (method === 'get') return path.endsWith('}') ? `One ${what} by id (404 not_found when it is not on this account).` : `${r?.description ?? ''}`.trim() || `List of ${tag}.`;
  if (method === 'post') return `Creates a ${what}. Send an Idempotency-Key to retry safely. Input rules: GET /schema/${tag}.`;
  if (method === 'patch') return `Changes the attributes sent (merge style; metadata keys merge, null removes one). Input rules: GET /schema/${tag}.`;
  return `Deletes the ${what}${r?.deleteSemantics ? ` (${r.deleteSemantics})` : ''}; it then appears in GET /deleted_entities.`;
}

/** The components no operation refers to (left over from the generator). */
function dropUnusedSchemas(doc: Json) {
  const schemas = (doc.components as Json).schemas as Json;
  const text = JSON.stringify({ ...doc, components: { ...(doc.components as Json), schemas: {} } });
  let used = new Set([...text.matchAll(/#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]));
  // Follow references between schemas until nothing new is reached.
  for (let grew = true; grew; ) {
    const before = used.size;
    const inner = JSON.stringify([...used].map((n) => schemas[n]));
    used = new Set([...used, ...[...inner.matchAll(/#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1])]);
    grew = used.size > before;
  }
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}

/** A filter value that shows the grammar for this kind of attribute. */
function filterExample(f: Field): string {
  switch (f.kind) {
    case 'integer':
      return 'gt:100';
    case 'decimal':
    case 'money':
      return 'gte:10.00';
    case 'timestamp':
      return 'gte:2027-01-01T00:00:00Z';
    case 'date':
      return 'between:2027-01-01,2027-01-31';
    case 'walltime':
      return 'gte:2027-01-11T09:00:00';
    case 'boolean':
      return 'true';
    case 'enum':
      return `in:${(f.values ?? []).slice(0, 2).join(',')}`;
    default:
      return 'contains:smi';
  }
}

/** Paging parameters as the integers they are, and each filter with its operators and an example. */
function describeListParameters(op: Json, resource: Resource) {
  for (const p of (op.parameters as Json[]) ?? []) {
    if (p.in !== 'query') continue;
    const name = p.name as string;
    if (name === 'page') {
      p.schema = { type: 'integer', minimum: 1, maximum: PAGE_MAX, default: 1 };
      p.description = `Offset paging: the page to serve; past ${PAGE_MAX} it is clamped and meta.current_page says which page was served.`;
    } else if (name === 'page_size') {
      p.schema = { type: 'integer', minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT };
      p.description = 'Records per page (offset or cursor paging).';
    }
    else if (name === 'cursor') p.description = 'Keyset paging: send it empty for the first page, then the token from links.next. Bound to the filters, sort and page_size it was issued for (422 otherwise); not combined with page.';
    else if (Object.hasOwn(resource.filters, name)) {
      const f = resource.filters[name];
      const example = filterExample(f);
      p.description = `Filter on ${name} (${f.kind}${f.nullable ? ', nullable' : ''}): operator:value with one of ${filterOperators(f).join(', ')}; a value with no operator is eq. Repeat the parameter to AND conditions. Example: ${name}=${example}`;
      p.example = example;
    }
  }
}
