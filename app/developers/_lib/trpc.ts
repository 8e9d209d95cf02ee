/** The portal router, called from the browser over /developers/trpc (same origin: the session cookie goes along). */
import { createTRPCClient, httpLink, TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { PortalRouter } from '../../../server/routers/portal';
import { signInHref } from './next';

/** Calls whose 401 is their own answer (a wrong password), not a session that ended. */
/** Calls made before a member is signed in: their 401 is an answer to show, not a session that ended. */
const SIGNED_OUT_CALLS = new Set([
  'session.signIn',
  'session.signOut',
  'session.step',
  'session.secondFactor',
  'session.passkeyOptions',
  'session.passkey',
  'password.describe',
  'password.set',
  'account.totpStart',
  'account.totpConfirm',
  'account.passkeyOptions',
  'account.passkeyAdd',
]);

/**
 * A session that ends while a page is open (expired, signed out elsewhere, member deactivated) answers
 * every call with 401: without this the page would sit under "Signed in as" with nothing working. Off
 * to sign-in instead, with this page to come back to.
 */
const sessionEnded: TRPCLink<PortalRouter> =
  () =>
  ({ op, next }) =>
    observable((observer) =>
      next(op).subscribe({
        next: (value) => observer.next(value),
        complete: () => observer.complete(),
        error: (err) => {
          if (
            !SIGNED_OUT_CALLS.has(op.path) &&
            (err.data as { code?: string } | undefined)?.code === 'unauthenticated' &&
            typeof window !== 'undefined'
          ) {
            window.location.assign(signInHref(window.location.pathname + window.location.search, true));
          }
          observer.error(err);
        },
      }),
    );

export const portal = createTRPCClient<PortalRouter>({ links: [sessionEnded, httpLink({ url: '/developers/trpc' })] });

export interface PortalError {
  message: string;
  code?: string;
  /** Per-field messages (inline validation). */
  errors: Record<string, string[]>;
}

/** What a call that never got an answer says (the browser's own "Failed to fetch" tells a person nothing). */
export const UNREACHABLE = 'Could not reach the server. Check your internet connection, then try again.';

/** The API's error from a failed call: message, code and per-field errors. */
export function portalError(err: unknown): PortalError {
  if (err instanceof TRPCClientError) {
    const data = err.data as { code?: string; errors?: Record<string, string[]> } | undefined;
    // No error body at all: the request never reached the server, or its answer never came back.
    if (!data && !err.shape) return { message: UNREACHABLE, code: 'unreachable', errors: {} };
    return { message: err.message, code: data?.code, errors: data?.errors ?? {} };
  }
  return { message: UNREACHABLE, code: 'unreachable', errors: {} };
}
