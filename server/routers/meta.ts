/** Utility endpoints: liveness, identity, schema discovery, the change history. */
import { z } from 'zod';
import { ApiError } from '../errors';
import { GROUP_ACCESS, GROUP_NAMES, KEY_GROUPS, permissionsOfAccess } from '../auth/key-groups';
import { describeResource, keyGroups, schemaIndex } from '../resources/describe';
import { PLANNED } from '../resources';
import { changelog, changelogOutput } from '../rest/changelog';
import { documentOutput, procedure, router } from '../trpc';

export const metaRouter = router({
  ping: documentOutput(
    procedure
      .meta({
        permission: 'none',
        openapi: {
          method: 'GET',
          path: '/ping',
          tags: ['utility'],
          summary: 'Liveness',
          description:
            'Answers { pong: true } while the process serves requests; needs no key. Readiness (the database) is GET /readyz, outside the API.',
          protect: false,
        },
      })
      .input(z.strictObject({}))
      .query(() => ({ pong: true })),
    z.object({ pong: z.boolean() }),
  ),
  me: documentOutput(
    procedure
      .meta({
        permission: 'none',
        openapi: {
          method: 'GET',
          path: '/me',
          tags: ['utility'],
          summary: 'The calling integration and its account',
          description:
            "The key's integration (name, scopes: read, write), what it may do per group of resources (permissions: none, read or write; a restricted key holds only some) and from which networks, and its account, whose timezone every wall time and calendar day of the API is in.",
        },
      })
      .input(z.strictObject({}))
      .query(({ ctx }) => ({
        data: {
          type: ctx.principal.type,
          id: ctx.principal.id,
          name: ctx.principal.name,
          scopes: ctx.principal.type === 'api_key' ? ctx.principal.scopes : [],
          restricted: ctx.principal.type === 'api_key' && ctx.principal.permissions !== undefined,
          permissions:
            (ctx.principal.type === 'api_key' && ctx.principal.permissions) ||
            permissionsOfAccess(
              ctx.principal.type === 'api_key' && ctx.principal.scopes.includes('write') ? 'read_write' : 'read_only',
            ),
          allowed_ips: (ctx.principal.type === 'api_key' && ctx.principal.allowedIps) || null,
          account: {
            id: ctx.account.id,
            name: ctx.account.name,
            timezone: ctx.account.timezone,
            currency: ctx.account.currency,
          },
        },
      })),
    z.object({
      data: z.object({
        type: z.string(),
        id: z.number().int(),
        name: z.string(),
        scopes: z.array(z.enum(['read', 'write'])),
        restricted: z.boolean().describe('A restricted key: it holds only the permissions listed'),
        permissions: z
          .object(Object.fromEntries(GROUP_NAMES.map((g) => [g, z.enum(GROUP_ACCESS).describe(KEY_GROUPS[g])])))
          .describe('Per group of resources: none, read, or write (write includes read); GET /schema lists each group'),
        allowed_ips: z
          .array(z.string())
          .nullable()
          .describe('The networks (addresses or CIDR) the key may call from; null: any'),
        account: z.object({
          id: z.number().int(),
          name: z.string(),
          timezone: z
            .string()
            .describe(
              'IANA timezone of all wall times. A clinic may change it (its profile): appointments keep their wall times and their *_utc instants move, each announced as appointments.updated; read it again within 5 seconds of a change',
            ),
          currency: z
            .string()
            .describe('ISO 4217 code of every amount; fixed once the clinic has an invoice or a payment'),
        }),
      }),
    }),
  ),
  schemaIndex: documentOutput(
    procedure
      .meta({
        permission: 'none',
        openapi: {
          method: 'GET',
          path: '/schema',
          tags: ['utility'],
          summary: 'Resources of the API',
          description:
            'Every resource with its operations, the path of its description and the group a restricted key needs for it; planned ones are listed with available: false. key_groups lists the groups.',
        },
      })
      .input(z.strictObject({}))
      .query(() => ({ data: schemaIndex(), key_groups: keyGroups() })),
    z.object({
      data: z.array(
        z.object({
          name: z.string(),
          description: z.string(),
          available: z.boolean().describe('false: in the specification, not served by this version yet'),
          operations: z.array(z.string()),
          href: z.string().nullable(),
          key_permission: z
            .string()
            .nullable()
            .describe("The group a restricted key needs (key_groups); feed: any group, entries narrowed to the key's"),
        }),
      ),
      key_groups: z
        .array(z.object({ name: z.string(), label: z.string(), description: z.string() }))
        .describe('The groups a restricted key holds none, read or write of'),
    }),
  ),
  schemaResource: documentOutput(
    procedure
      .meta({
        permission: 'none',
        openapi: {
          method: 'GET',
          path: '/schema/{resource}',
          tags: ['utility'],
          summary: 'Attributes, filters, sorts and write rules of one resource',
          description:
            'One resource described as data: its attributes (type, nullable, filterable with operators, sortable, writable), paging, write operations and input rules with their JSON Schema. 404 not_found for a name that is not a resource.',
        },
      })
      .input(z.strictObject({ resource: z.string() }))
      .query(({ input }) => {
        const doc = describeResource(input.resource);
        if (!doc) {
          const planned = Object.hasOwn(PLANNED, input.resource);
          throw new ApiError(
            'not_found',
            planned ? `${input.resource} is not served by this version yet` : `No resource named ${input.resource}`,
          );
        }
        return { data: doc };
      }),
    z.object({ data: z.record(z.string(), z.unknown()) }),
  ),
  changelog: documentOutput(
    procedure
      .meta({
        permission: 'none',
        openapi: {
          method: 'GET',
          path: '/changelog',
          tags: ['utility'],
          summary: 'Change history of the API',
          description:
            'The published change history (CHANGELOG.md), newest first: each release with its additions, behaviour changes, deprecations, removals, fixes and security fixes, and what is deprecated now with its replacement and sunset. Public (no key); the same for every clinic, sent with an ETag (If-None-Match answers 304).',
          protect: false,
          successDescription: 'The change history, and what is deprecated now',
        },
        cacheable: true,
      })
      .input(z.strictObject({}))
      .query(() => changelog()),
    changelogOutput,
  ),
});
