/** The portal router, called from the browser over /developers/trpc (same origin: the session cookie goes along). */
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { PortalRouter } from '../../../server/routers/portal';

export const portal = createTRPCClient<PortalRouter>({ links: [httpLink({ url: '/developers/trpc' })] });

export interface PortalError {
  message: string;
  code?: string;
  /** Per-field messages (inline validation). */
  errors: Record<string, string[]>;
}

/** The API's error from a failed call: message, code and per-field errors. */
export function portalError(err: unknown): PortalError {
  if (err instanceof TRPCClientError) {
    const data = (err.data ?? {}) as { code?: string; errors?: Record<string, string[]> };
    return { message: err.message, code: data.code, errors: data.errors ?? {} };
  }
  return { message: 'Something went wrong. Check your connection and try again.', errors: {} };
}
