/**
 * The OpenAPI 3.1 document. trpc-to-openapi lays out the paths and parameters from the router's route
 * meta; the rest follows the resource declarations and what the gateway really does: named models
 * (server/rest/openapi/schemas.ts), list parameters (parameters.ts), success statuses and every error
 * status with its codes (responses.ts), descriptions with their rules (text.ts).
 */
import { generateOpenApiDocument } from 'trpc-to-openapi';
import { deprecationsOf, deprecationText } from '../resources/deprecation';
import { appRouter } from '../routers';
import { ERROR_MODEL } from './openapi/names';
import { operationOf, type Json, type Operation } from './openapi/operation';
import { booleanFlags, listParameters } from './openapi/parameters';
import { commonHeaders, errorCodes, errorResponses, HEADERS, sharedResponses } from './openapi/responses';
import { bodyName, deprecatedProperties, ref, responseSchemas } from './openapi/schemas';
import { EXAMPLES, operationDescription, ruleText, tagsOf } from './openapi/text';
import { addWebhooks } from './openapi/webhooks';
import type { Route, RouteTable } from './routes';
import { accessNeeded, scopeOf } from '../auth/key-groups';

type Op = Json & {
  parameters?: Json[];
  requestBody?: { required?: boolean; content: Record<string, Json & { schema: Json }> };
  responses: Json;
};

const INFO_DESCRIPTION =
  "**Beta** (the specification's label, also `x-beta` here): changes within v3 are additive, and each is in the change history (GET /changelog). " +
  'Multi-tenant practice-management API. Each clinic is addressed by its own host; authenticate with `Authorization: Bearer <API_KEY>`. ' +
  'Lists take `?attribute=operator:value` filters, `sort`, and offset (`page`, `page_size`) or cursor (`cursor`) paging. See GET /schema/{resource}.\n\n' +
  'The API is additive within a version: new attributes, error codes, event types and optional inputs may appear at any time, so read ' +
  'responses leniently (ignore attributes you do not know; treat an unknown code by its HTTP status). Request bodies are strict: an unknown ' +
  'attribute is 422. A method a path does not support is 405 with `Allow` (`unsupported_operation` for a write the resource does not offer, ' +
  'else `method_not_allowed`); a request the HTTP parser refuses is 400 `bad_request`, and headers over 16 KB 431 `headers_too_large`.';

export function buildOpenApiDocument(routes: RouteTable): Json {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Clinic API',
    version: '3.0.0',
    openApiVersion: '3.1.0',
    baseUrl: 'https://{clinic}.{region}.example.com/v3/api',
    description: INFO_DESCRIPTION,
    // Where an integrator gets help is the clinic's own developer portal (its host is theirs alone).
    contact: { name: 'The developer portal of your clinic, at /developers on its host' },
    // An identifier (SPDX: a licence of its own) as well as the name: swagger-parser 13 wants one of identifier and url.
    license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description:
          "API key created under Developers → API Keys. Revocation is immediate on the server process that revoked the key and takes effect on every other process within one second (successful key lookups are cached that long); a rotated key's previous secret keeps working for 24 hours.",
      },
    },
  }) as unknown as Json;
  // Server variables carry no description: swagger-parser 13 refuses one (its OpenAPI 3.1 schema misspells the field).
  doc.servers = [
    {
      url: 'https://{clinic}.{region}.{domain}/v3/api',
      description:
        "A clinic's own host: {clinic} is its subdomain, {region} the region of its login address, {domain} the service domain",
      variables: {
        clinic: { default: 'demo' },
        region: { default: 'neptune', enum: ['neptune', 'mercury', 'vulcan', 'jupiter', 'apollo'] },
        domain: { default: 'localhost' },
      },
    },
  ];
  // Every operation needs a key but those that say otherwise (security: []).
  doc.security = [{ bearer: [] }];
  const operations = routes.routes.map(operationOf);
  const { components: schemas, byRoute } = responseSchemas(operations);
  const paths = doc.paths as Record<string, Record<string, Op>>;
  for (const operation of operations) {
    const { route } = operation;
    const op = paths[route.path][route.method.toLowerCase()];
    op.description = operationDescription(operation, op.description as string | undefined);
    if (route.deprecated) {
      op.deprecated = true;
      op.description = `${deprecationText(route.deprecated)}\n\n${op.description}`;
    }
    if (!route.protect) op.security = [];
    else keyPermission(op, route);
    describeBody(op, operation, schemas);
    describeParameters(op, operation);
    const codes = errorCodes(route, ruleText(operation, op.description as string));
    op.responses = {
      ...successResponse(op, operation, byRoute.get(route)),
      ...errorResponses(codes, /\{\w+\}/.test(route.path)),
    };
  }
  deprecatedProperties(schemas);
  paths['/openapi.json'] = { get: openApiOperation() };
  // The specification's Beta label, where tools read it (title and a flag), besides the description.
  Object.assign(doc.info as Json, { title: 'Clinic API (Beta)', 'x-beta': true });
  doc.tags = tagsOf(paths);
  doc.components = {
    ...(doc.components as Json),
    schemas: sorted(schemas),
    responses: sharedResponses(),
    headers: HEADERS,
  };
  addWebhooks(doc);
  withoutSafeIntegerBounds(doc);
  return doc;
}

/** The body as a named component (a closed object: unknown attributes are 422); required only when it has required attributes. */
function describeBody(op: Op, operation: Operation, schemas: Record<string, Json>): void {
  const body = op.requestBody;
  if (!body) return;
  const name = bodyName(operation);
  for (const [type, media] of Object.entries(body.content)) {
    if (type === 'multipart/form-data') {
      const properties = (media.schema as { properties: Record<string, Json> }).properties;
      properties.file = {
        type: 'string',
        format: 'binary',
        description: 'The file; its content type is read from the bytes',
      };
      properties.patient_viewable = { type: 'boolean' };
    }
    // The gateway reads an absent body as {}: a body is needed exactly when something in it is.
    body.required = ((media.schema.required as string[] | undefined) ?? []).length > 0;
    if (name) {
      schemas[name] = media.schema;
      media.schema = ref(name);
    }
    const example = EXAMPLES[`${operation.route.method} ${operation.route.path}`];
    if (example) media.example = example;
  }
}

function describeParameters(op: Op, { route, resource, kind }: Operation): void {
  if (kind === 'list' && resource) op.parameters = listParameters(resource);
  booleanFlags(op.parameters ?? []);
  if (route.cacheable) {
    op.parameters = [
      ...(op.parameters ?? []),
      {
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description: 'The ETag of an answer you hold: 304 with no body while it is current',
        schema: { type: 'string' },
      },
    ];
  }
  if (route.method === 'POST' && route.protect) {
    op.parameters = [
      ...(op.parameters ?? []),
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: 'Any unique string up to 255 characters; a retry within 24 hours replays the first response',
        schema: { type: 'string', maxLength: 255 },
      },
    ];
  }
}

/** Headers of an answer to a request that used something deprecated (server/resources/deprecation.ts). */
const DEPRECATION_HEADERS: Json = {
  Deprecation: {
    description: 'The request used something deprecated (RFC 9745): @ and the Unix time it was deprecated at',
    schema: { type: 'string', pattern: '^@-?\\d+$' },
  },
  Sunset: {
    description: 'When what the request used may stop working (RFC 8594), an HTTP-date',
    schema: { type: 'string' },
  },
  Link: {
    description: 'rel="deprecation": the change history (GET /changelog) that says what to use instead',
    schema: { type: 'string' },
  },
};

/** The one success response: 201 for creates, 204 without a body, the bytes of a download. */
function successResponse(op: Op, operation: Operation, schema: Json | undefined): Json {
  const { route } = operation;
  const generated = (op.responses as Record<string, { description?: string }>)['200'];
  const headers = {
    ...commonHeaders(),
    ...(deprecationsOf({ ...operation, route: route.deprecated }).length ? DEPRECATION_HEADERS : {}),
  };
  if (route.status === 204) return { 204: { description: generated?.description ?? 'Done; no body', headers } };
  if (route.binary) {
    return {
      200: {
        description:
          'The bytes. Content-Type is the type read from them at upload (the file’s mime_type), application/octet-stream when unknown.',
        headers: {
          ...headers,
          'Content-Disposition': { description: 'attachment; filename="…"', schema: { type: 'string' } },
        },
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
    };
  }
  if (route.method === 'POST' && route.protect)
    headers['Idempotent-Replayed'] = { $ref: '#/components/headers/IdempotentReplayed' };
  const success = {
    [route.status]: {
      description: generated?.description ?? 'OK',
      headers,
      content: { 'application/json': { schema } },
    },
  };
  if (!route.cacheable) return success;
  const caching = {
    ETag: { description: 'Strong validator of this body: send it as If-None-Match', schema: { type: 'string' } },
    'Cache-Control': { description: 'public, max-age=300', schema: { type: 'string' } },
  };
  Object.assign(headers, caching);
  return {
    ...success,
    304: {
      description: 'Not modified: the ETag sent in If-None-Match is current; no body',
      headers: { ...commonHeaders(), ...caching },
    },
  };
}

/** The permission a restricted key needs, where tools read it (`x-permission`) and people do (the description). */
function keyPermission(op: Op, route: Route): void {
  const { permission } = route;
  const scope =
    permission === 'none' ? 'none' : permission === 'feed' ? 'any' : scopeOf(permission, accessNeeded(route.type));
  op['x-permission'] = scope;
  const sentence =
    permission === 'none'
      ? 'Any key may call this, restricted or not.'
      : permission === 'feed'
        ? 'A restricted key reads the entries of the resources its groups may read (the entity filter is narrowed to them; naming another resource is 403 forbidden).'
        : `A restricted key needs the \`${scope}\` permission (403 forbidden without it).`;
  op.description = `${op.description ?? ''}\n\n${sentence}`.trim();
}

/** GET /openapi.json: public, in a rate-limit bucket of its own (not a route of the table: the gateway serves it before any clinic). */
function openApiOperation(): Op {
  const codes = errorCodes({ protect: false, type: 'query', method: 'GET', multipart: false });
  // Served whatever the host and query: neither an unknown clinic nor a parameter is refused.
  codes.delete(404);
  codes.delete(422);
  return {
    operationId: 'openapi',
    summary: 'This OpenAPI document',
    description: 'The OpenAPI 3.1 document of this API. Public (no key); 60 requests a minute per client address.',
    tags: ['utility'],
    security: [],
    responses: {
      200: {
        description: 'The document',
        headers: commonHeaders(),
        content: { 'application/json': { schema: { type: 'object', description: 'An OpenAPI 3.1 document' } } },
      },
      ...errorResponses(codes, false),
    },
  };
}

/** Components in name order, the error body first: what a reader and a generator list. */
function sorted(schemas: Record<string, Json>): Record<string, Json> {
  const names = Object.keys(schemas)
    .filter((n) => n !== ERROR_MODEL)
    .sort();
  return Object.fromEntries([ERROR_MODEL, ...names].map((n) => [n, schemas[n]]));
}

/**
 * zod writes every `.int()` with JavaScript's safe-integer bounds as `minimum`/`maximum`: they say
 * nothing an integer does not, and renderers took the minimum for the example (`current_page:
 * -9007199254740991` in the portal's reference). Real bounds (page_size, an amount's range) stay.
 */
function withoutSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(withoutSafeIntegerBounds);
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  if (o.minimum === Number.MIN_SAFE_INTEGER) delete o.minimum;
  if (o.maximum === Number.MAX_SAFE_INTEGER) delete o.maximum;
  for (const v of Object.values(o)) withoutSafeIntegerBounds(v);
}
