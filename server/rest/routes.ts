/**
 * The route table of the REST surface, built once from the tRPC router's OpenAPI metadata with
 * trpc-to-openapi's own path helpers. The gateway uses it to find a procedure, and to answer 405
 * with `Allow` for a known path and another method.
 */
import type { AnyProcedure } from '@trpc/server';
import { forEachOpenApiProcedure, getPathRegExp, normalizePath, type OpenApiProcedureRecord } from 'trpc-to-openapi';
import type { RouteMeta } from '../trpc';
import type { z } from 'zod';
import type { AnyRouter } from '@trpc/server';

export interface Route {
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
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

export class RouteTable {
  readonly routes: Route[] = [];

  constructor(router: AnyRouter) {
    forEachOpenApiProcedure(router._def.procedures as OpenApiProcedureRecord, ({ path, type, procedure, meta }) => {
      const route: RouteMeta = meta;
      const openapi = route.openapi!;
      const status = route.status ?? (openapi.method === 'POST' ? 201 : openapi.method === 'DELETE' ? 204 : 200);
      this.routes.push({
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
      });
    });
    // Literal segments beat parameters: /schema before /schema/{resource}, /patients/{id} after static paths.
    this.routes.sort((a, b) => a.path.split('{').length - b.path.split('{').length);
  }

  /** The route for method and path, or the methods the path does support (empty: unknown path). */
  match(method: string, path: string): Match | { allow: string[] } {
    const allow: string[] = [];
    for (const route of this.routes) {
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
