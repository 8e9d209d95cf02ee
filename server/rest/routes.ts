/**
 * The route table of the REST surface, built once from the tRPC router's OpenAPI metadata with
 * trpc-to-openapi's own path helpers. The gateway uses it to find a procedure, and to answer 405
 * with `Allow` for a known path and another method.
 */
import type { AnyProcedure } from '@trpc/server';
import { forEachOpenApiProcedure, getPathRegExp, normalizePath, type OpenApiProcedureRecord } from 'trpc-to-openapi';
import type { RouteMeta } from '../trpc';
import type { z } from 'zod';
import { $ZodAsyncError } from 'zod/v4/core';
import type { AnyRouter } from '@trpc/server';
import type { Ctx } from '../context';
import type { Deprecation } from '../resources/deprecation';
import { fallbacks } from '../shortcuts';
import { RESOURCES } from '../resources';
import type { RoutePermission } from '../auth/key-groups';
import type { Resource } from '../resources/define';

interface ProcedureDef {
  inputs: unknown[];
  middlewares: { _type?: string; name?: string }[];
  resolver?: (opts: Record<string, unknown>) => Promise<unknown>;
  meta?: unknown;
}
type ZodLike = {
  parseAsync(value: unknown): Promise<unknown>;
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: unknown };
};

/**
 * A schema's parse, synchronous unless the schema needs to wait (an async refinement): zod then throws
 * $ZodAsyncError and the input is parsed again with parseAsync. Most inputs are synchronous, and their
 * requests skip the promise machinery of parseAsync. Refusals throw the same ZodError either way.
 */
function parser(schema: ZodLike): (value: unknown) => unknown {
  let async = false;
  return (value) => {
    if (async) return schema.parseAsync(value);
    try {
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data;
      throw parsed.error;
    } catch (err) {
      if (!(err instanceof $ZodAsyncError)) throw err;
      async = true;
      return schema.parseAsync(value);
    }
  };
}

/**
 * How the gateway calls a procedure. One with no middleware of its own (its chain is one input parser
 * and the resolver) is called directly: its schema parses the raw input and the resolver runs, which is
 * what tRPC's chain does, without copying the call's options into new objects at every link (measured:
 * 10% of a GET /ping, 5% of a GET /patients/{id}). Any other procedure goes through tRPC itself.
 */
function invoker(procedure: AnyProcedure, path: string, type: 'query' | 'mutation'): Invoke {
  const def = (procedure as unknown as { _def: ProcedureDef })._def;
  const chain = def.middlewares.map((m) => m._type ?? m.name);
  const schema = def.inputs[0] as Partial<ZodLike> | undefined;
  const plain =
    def.resolver &&
    def.inputs.length <= 1 &&
    (!schema || (typeof schema.parseAsync === 'function' && typeof schema.safeParse === 'function')) &&
    chain.length === def.inputs.length + 1 &&
    chain.every((m, i) => (i < def.inputs.length ? m === 'input' : m === 'resolveMiddleware'));
  if (plain) {
    const resolver = def.resolver!;
    const run = (ctx: Ctx, input: unknown, rawInput: unknown) =>
      resolver({ ctx, input, path, type, meta: def.meta, signal: undefined, getRawInput: async () => rawInput });
    const parse = schema ? parser(schema as ZodLike) : () => undefined;
    return async (ctx, rawInput) => {
      const input = parse(rawInput);
      return run(ctx, input instanceof Promise ? await input : input, rawInput);
    };
  }
  return (ctx, rawInput) => {
    fallbacks.seen?.('trpc-chain', path);
    return procedure({ ctx, getRawInput: async () => rawInput, path, type, signal: undefined, batchIndex: 0 });
  };
}

/** Calls a route's procedure with its context and raw input, and resolves to what it returns. */
export type Invoke = (ctx: Ctx, rawInput: Record<string, unknown>) => Promise<unknown>;

export interface Route {
  /** The procedure, called through tRPC's middleware chain or directly (see `invoker`). */
  invoke: Invoke;
  method: string;
  path: string;
  regexp: RegExp;
  procedure: AnyProcedure;
  procedurePath: string;
  type: 'query' | 'mutation';
  protect: boolean;
  /** Success status: 201 for creates, 204 for deletes, else 200 unless the meta says otherwise. */
  status: number;
  output?: z.ZodType;
  /** Takes multipart/form-data (uploads) instead of JSON. */
  multipart: boolean;
  /** Answers raw bytes ({ content_type, file_name, bytes }) instead of JSON. */
  binary: boolean;
  /** Deprecated, as its meta declares. */
  deprecated?: Deprecation;
  /** Answered with an ETag, 304 to a matching If-None-Match (RouteMeta.cacheable). */
  cacheable: boolean;
  /** What a restricted key needs: this group's read (GET) or write (any other method). */
  permission: RoutePermission;
  /** The resource its path names (`/patients/{id}` → patients), or none (`/me`, `/availability`). */
  resource?: Resource;
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

/** A route's group: declared in its meta, or its resource's; a route of neither would be open to every key. */
function permissionOf(path: string, meta: RouteMeta): RoutePermission {
  const permission = meta.permission ?? resourceOf(path)?.permission;
  if (!permission)
    throw new Error(`route ${path}: no resource named ${firstSegment(path)}; declare its permission in the meta`);
  return permission;
}

const resourceOf = (path: string): Resource | undefined => {
  const name = firstSegment(path);
  return Object.hasOwn(RESOURCES, name) ? RESOURCES[name] : undefined;
};

/** The first segment of a path (`/patients/12` → `patients`): routes are bucketed by it. */
const firstSegment = (path: string) => path.slice(1).split('/', 1)[0];

export class RouteTable {
  readonly routes: Route[] = [];
  /** Routes by their first path segment (never a parameter here), in matching order. */
  private readonly buckets = new Map<string, Route[]>();

  constructor(router: AnyRouter) {
    forEachOpenApiProcedure(router._def.procedures as OpenApiProcedureRecord, ({ path, type, procedure, meta }) => {
      const route: RouteMeta = meta;
      const openapi = route.openapi!;
      const status = route.status ?? (openapi.method === 'POST' ? 201 : openapi.method === 'DELETE' ? 204 : 200);
      this.routes.push({
        invoke: invoker(procedure as unknown as AnyProcedure, path, type as 'query' | 'mutation'),
        method: openapi.method,
        path: normalizePath(openapi.path),
        regexp: getPathRegExp(normalizePath(openapi.path)),
        procedure: procedure as unknown as AnyProcedure,
        procedurePath: path,
        type: type as 'query' | 'mutation',
        protect: openapi.protect ?? true,
        status,
        output: (procedure as unknown as { _def: { output?: z.ZodType } })._def.output,
        multipart: route.multipart === true,
        binary: route.binary === true,
        deprecated: route.deprecated,
        cacheable: route.cacheable === true,
        resource: resourceOf(openapi.path),
        permission: permissionOf(openapi.path, route),
      });
    });
    // Literal segments beat parameters: /schema before /schema/{resource}, /patients/{id} after static paths.
    this.routes.sort((a, b) => a.path.split('{').length - b.path.split('{').length);
    for (const route of this.routes) {
      const key = firstSegment(route.path);
      if (key.startsWith('{'))
        throw new Error(`route ${route.path}: a first segment that is a parameter would defeat the buckets`);
      const bucket = this.buckets.get(key);
      if (bucket) bucket.push(route);
      else this.buckets.set(key, [route]);
    }
  }

  /** The route for method and path, or the methods the path does support (empty: unknown path). */
  match(method: string, path: string): Match | { allow: string[] } {
    const allow: string[] = [];
    // Only routes sharing the first segment can match: a handful of regexps instead of every route's.
    for (const route of this.buckets.get(firstSegment(path)) ?? []) {
      const m = route.regexp.exec(path);
      if (!m) continue;
      if (route.method === method) {
        const params: Record<string, string> = {};
        for (const [k, v] of Object.entries(m.groups ?? {})) params[k] = safeDecode(v);
        return { route, params };
      }
      allow.push(route.method);
      if (route.method === 'GET') allow.push('HEAD');
    }
    return { allow: [...new Set(allow)] };
  }
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}
