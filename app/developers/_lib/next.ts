/**
 * Where sign-in sends a person afterwards (`?next=`). It comes from the address bar, so anyone can
 * write it: only a path of this portal is followed, never another site (no open redirect).
 */
const HOME = '/developers';

/** A same-origin portal path, or undefined. `//host` and `/\host` are other sites to a browser; control characters and backslashes have no place in a portal path. */
export function portalPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 2000) return undefined;
  if (!value.startsWith(`${HOME}/`) || value.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(value))
    return undefined;
  // Back to the sign-in page itself would only loop.
  if (value === `${HOME}/sign-in` || value.startsWith(`${HOME}/sign-in?`) || value.startsWith(`${HOME}/sign-in/`))
    return undefined;
  return value;
}

/** Where to go once signed in: the asked-for portal page, else the portal's first page. */
export const afterSignIn = (next: unknown) => portalPath(next) ?? HOME;

/** The sign-in page, coming back to `path` afterwards (when it is a portal page); `ended`: a session ended while the page was open (the page says so). */
export function signInHref(path?: string, ended = false): string {
  const next = portalPath(path);
  const query = new URLSearchParams();
  if (next) query.set('next', next);
  if (ended) query.set('ended', '1');
  return query.size ? `${HOME}/sign-in?${query}` : `${HOME}/sign-in`;
}
