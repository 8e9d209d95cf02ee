import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { z } from 'zod';
import type { Ctx, Principal } from './context';
import { ApiError } from './errors';

const t = initTRPC.meta<OpenApiMeta>().context<Ctx>().create({ isServer: true });

export const router = t.router;
export const procedure = t.procedure;

/** Writes need the write scope: a read-only key gets 403 key_read_only. */
export function assertCanWrite(principal: Principal): void {
  if (!principal.scopes.includes('write')) throw new ApiError('key_read_only', 'This API key is read-only; writes need a read & write key');
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
