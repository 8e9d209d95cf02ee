/**
 * A portal client for tests: calls the portal router over /developers/trpc as the pages do (GET for
 * queries, POST with the page's Origin for mutations), keeping the session cookie like a browser.
 */
import type { RoleKey } from '../../../db/schema';
import { createMember } from '../../domain/team';
import { request, uniqueName, type Clinic, type Res, type TestServer } from '../helpers';

export interface PortalCallOptions {
  /** The Origin header of a mutation: the portal's own by default; null leaves it out. */
  origin?: string | null;
  headers?: Record<string, string>;
}

export interface PortalClient {
  query(proc: string, input?: unknown, opts?: PortalCallOptions): Promise<Res>;
  mutate(proc: string, input?: unknown, opts?: PortalCallOptions): Promise<Res>;
  signIn(email: string, password: string): Promise<Res>;
  /** The session cookie as the browser would send it (empty when signed out). */
  cookie: string;
}

let clients = 0;

/**
 * Behind a trusted proxy each client comes from an address of its own (198.18.0.0/15, the range set
 * aside for benchmarks): the sign-in failures one test provokes are counted per address, on a database
 * the whole suite shares, and must not throttle another test's client.
 */
function ownAddress(server: TestServer): Record<string, string> {
  if (!server.trustsProxy) return {};
  return { 'x-forwarded-for': `198.19.${process.pid % 256}.${(clients++ % 254) + 1}` };
}

export function portalClient(server: TestServer, clinic: Clinic, host = clinic.host): PortalClient {
  const from = ownAddress(server);
  const c: PortalClient = {
    cookie: '',
    async query(proc, input, opts = {}) {
      const qs = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
      return keep(
        await request(server, 'GET', `/developers/trpc/${proc}${qs}`, {
          host,
          headers: { ...from, ...(c.cookie ? { cookie: c.cookie } : {}), ...opts.headers },
        }),
      );
    },
    async mutate(proc, input, opts = {}) {
      const origin = opts.origin === undefined ? `http://${host}` : opts.origin;
      return keep(
        await request(server, 'POST', `/developers/trpc/${proc}`, {
          host,
          raw: JSON.stringify(input ?? null),
          headers: {
            'content-type': 'application/json',
            ...from,
            ...(origin ? { origin } : {}),
            ...(c.cookie ? { cookie: c.cookie } : {}),
            ...opts.headers,
          },
        }),
      );
    },
    signIn: (email, password) => c.mutate('session.signIn', { email, password }),
  };
  // Like a browser: a Set-Cookie replaces the cookie (Max-Age=0 clears it).
  const keep = (res: Res) => {
    const set = res.headers['set-cookie']?.[0];
    if (set) c.cookie = /Max-Age=0/.test(set) ? '' : set.split(';')[0];
    return res;
  };
  return c;
}

export const PASSWORD = 'correct horse battery staple';

/** A member of the clinic with a known password. */
export async function addMember(server: TestServer, clinic: Clinic, role: RoleKey, opts: { active?: boolean } = {}) {
  const email = `${uniqueName(role)}@example.test`;
  const member = await createMember(
    server.app.db,
    clinic.account,
    { actor_type: 'system', actor_id: null, actor_name: 'test' },
    { name: `${role} member`, email, role, password: PASSWORD },
  );
  return { ...member, email, password: PASSWORD, active: opts.active ?? true };
}

/** A signed-in portal client for a new member of the role. */
export async function signedIn(server: TestServer, clinic: Clinic, role: RoleKey) {
  const member = await addMember(server, clinic, role);
  const portal = portalClient(server, clinic);
  const res = await portal.signIn(member.email, member.password);
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return { member, portal };
}

/** The API's error code of a portal answer. */
export const portalCode = (res: Res): string | undefined => res.body?.error?.data?.code;
/** The data of a successful portal answer. */
export const portalData = (res: Res) => res.body?.result?.data;
