import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { z } from 'zod';
import type { Ctx, Principal } from './context';
import type { Permission } from './auth/permissions';
import type { RoutePermission } from './auth/key-groups';
import type { Deprecation } from './resources/deprecation';
import { ApiError } from './errors';
import { toApiError } from './rest/errors';

/** What a procedure declares about its REST route, besides trpc-to-openapi's own `openapi` block. */
export type RouteMeta = OpenApiMeta & {
  /** Success status when it is not the method's default (201 POST, 204 DELETE, else 200). */
  status?: number;
  /** Takes multipart/form-data (uploads) instead of JSON. */
  multipart?: boolean;
  /** Answers raw bytes ({ content_type, file_name, bytes }) instead of JSON. */
  binary?: boolean;
  /** A deprecated route: `deprecated: true` in the document, Deprecation/Sunset headers on its answers (server/resources/deprecation.ts). */
  deprecated?: Deprecation;
  /** The same answer for every caller until the next deploy: sent with an ETag, 304 to a matching If-None-Match. */
  cacheable?: boolean;
  /**
   * What a restricted key needs (server/auth/key-permissions.ts). Absent: the group of the resource the
   * path names (server/rest/routes.ts); a route of no resource must say.
   */
  permission?: RoutePermission;
  /** Portal procedures: the permissions of which a member needs one (set by `permitted`; tests read it). */
  permissions?: readonly Permission[];
};

const t = initTRPC
  .meta<RouteMeta>()
  .context<Ctx>()
  .create({
    isServer: true,
    // Portal clients (server/portal/handler.ts) get the API's own error: code, message, errors. The REST
    // gateway maps errors itself and never sees this shape.
    errorFormatter: ({ shape, error }) => {
      const api = toApiError(error).error;
      return { ...shape, message: api.message, data: { ...api.toBody(), status: api.status } };
    },
  });

export const router = t.router;
export const procedure = t.procedure;

/** Writes need the write scope: a read-only key gets 403 key_read_only. */
export function assertCanWrite(principal: Principal): void {
  if (principal.type !== 'api_key' || !principal.scopes.includes('write'))
    throw new ApiError('key_read_only', 'This API key is read-only; writes need a read & write key');
}

export const writeProcedure = t.procedure.use(({ ctx, next }) => {
  assertCanWrite(ctx.principal);
  return next();
});

/**
 * Documents a procedure's response schema for OpenAPI without validating every response at run time
 * (the hot path); the test suite validates every response against it instead (server/rest/gateway.ts).
 */
export function documentOutput<P>(proc: P, schema: z.ZodType): P {
  (proc as unknown as { _def: { output: z.ZodType } })._def.output = schema;
  return proc;
}

/**
 * The input a procedure's schema parsed, typed as the schema's output. tRPC types a procedure's input
 * with a conditional type it cannot resolve when the schema is generic (the procedure factories of
 * server/routers/write.ts); the value is exactly what the schema returned.
 */
export const parsedBy = <T>(_schema: z.ZodType<T>, input: unknown): T => input as T;
