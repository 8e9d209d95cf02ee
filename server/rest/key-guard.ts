/**
 * What a restricted key may do, checked in the gateway before a body is read: its networks, the group
 * of the route, the feeds narrowed to its groups, and embeds of groups it may not read left null
 * (docs/decisions.md, "Restricted keys").
 */
import type { Principal } from '../context';
import { ApiError } from '../errors';
import { addressAllowed } from '../auth/key-permissions';
import {
  accessNeeded,
  GROUP_LABELS,
  GROUP_NAMES,
  scopeOf,
  type KeyGroup,
  type KeyPermissions,
} from '../auth/key-groups';
import { RESOURCES } from '../resources';
import type { Route } from './routes';

type Key = Extract<Principal, { type: 'api_key' }>;
const restrictedKey = (p: Principal | null): p is Key & { permissions: KeyPermissions } =>
  p?.type === 'api_key' && p.permissions !== undefined;

const mayRead = (permissions: KeyPermissions, group: KeyGroup) => permissions[group] !== 'none';

/** 403 forbidden for a key called from outside its networks, or for a route of a group it lacks. */
export function refuseOutsideKey(principal: Principal | null, route: Route, address: string | undefined): void {
  if (principal?.type !== 'api_key') return;
  if (principal.allowedIps && !addressAllowed(address, principal.allowedIps))
    throw new ApiError(
      'forbidden',
      `This API key may be used only from ${principal.allowedIps.join(', ')}; this request came from ${address ?? 'an unknown address'}. Change the key's allowed networks in the portal (Manage API keys)`,
      { ip: [`${address ?? 'unknown'} is not in the key's allowed networks`] },
    );
  if (!restrictedKey(principal) || route.permission === 'none' || route.permission === 'feed') return;
  const group = route.permission;
  const need = accessNeeded(route.type);
  const has = principal.permissions[group];
  if (has === 'write' || (has === 'read' && need === 'read')) return;
  throw missing(group, need, `${route.method} ${route.path}`);
}

function missing(group: KeyGroup, need: 'read' | 'write', what: string): ApiError {
  const scope = scopeOf(group, need);
  return new ApiError(
    'forbidden',
    `This restricted key lacks the ${scope} permission (${GROUP_LABELS[group]}: ${need}) that ${what} needs`,
    { permission: [scope] },
  );
}

/** The resources whose records a feed may show to a key: those of the groups it may read (and the feed names). */
function readableResources(permissions: KeyPermissions, route: Route): string[] {
  const named = route.resource?.filters.entity?.values;
  return Object.values(RESOURCES)
    .filter((r) => r.permission !== 'feed' && mayRead(permissions, r.permission))
    .map((r) => r.name)
    .filter((name) => !named || named.includes(name));
}

/**
 * A feed (events, deleted entities) read by a key that may not read every group: its `entity` filter
 * is narrowed to the resources the key may read (the page's links carry it), and a filter naming
 * another resource is refused, not answered with an empty page that would read as "nothing changed".
 */
export function narrowFeed(principal: Principal | null, route: Route, input: Record<string, unknown>): void {
  // One entry (`/events/{id}`) is checked once read: `feedEntry`.
  if (!restrictedKey(principal) || route.permission !== 'feed' || route.path.includes('{')) return;
  const { permissions } = principal;
  if (GROUP_NAMES.every((g) => mayRead(permissions, g))) return;
  const readable = readableResources(permissions, route);
  for (const param of ['entity', 'data.entity']) {
    const raw = input[param];
    for (const value of Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]) {
      const named = typeof value === 'string' ? namedEntities(value) : [];
      const refused = named.find((e) => !readable.includes(e));
      if (!refused) continue;
      const group = Object.hasOwn(RESOURCES, refused) ? RESOURCES[refused].permission : undefined;
      if (group && group !== 'feed') throw missing(group, 'read', `the ${refused} entries of ${route.path}`);
    }
  }
  if (!readable.length)
    throw new ApiError('forbidden', `This restricted key may read no group, so no entry of ${route.path}`);
  const own = input.entity;
  const narrowing = `in:${readable.join(',')}`;
  input.entity = own === undefined ? narrowing : [...(Array.isArray(own) ? own : [own]), narrowing];
}

/** The resources an equality or `in` filter value names (`eq:patients`, `in:a,b`, or a bare `patients`). */
function namedEntities(value: string): string[] {
  const m = /^(eq|in):(.*)$/s.exec(value);
  if (m) return m[2].split(',');
  return /^[a-z_]+$/.test(value) ? [value] : [];
}

/** One entry of a feed, about a resource of a group the key may not read: 403 forbidden naming that group's read. */
function refuseFeedEntry(principal: Principal | null, route: Route, data: unknown): void {
  if (!restrictedKey(principal) || route.permission !== 'feed' || !route.path.includes('{')) return;
  const entry = (data as { data?: { entity?: unknown; data?: { entity?: unknown } } } | null)?.data;
  const entity = entry?.entity ?? entry?.data?.entity;
  const resource = typeof entity === 'string' && Object.hasOwn(RESOURCES, entity) ? RESOURCES[entity] : undefined;
  if (resource && resource.permission !== 'feed' && !mayRead(principal.permissions, resource.permission))
    throw missing(resource.permission, 'read', `an entry of ${route.resource?.name} about ${entity}`);
}

/** What a key may see of an answer: a feed entry refused outside its groups, embeds of other groups null. */
export function keyView(principal: Principal | null, route: Route, data: unknown): unknown {
  refuseFeedEntry(principal, route, data);
  return redactEmbeds(principal, route, data);
}

/** A record's embeds of groups the key may not read, set to null (as for a deleted patient). */
function redactEmbeds(principal: Principal | null, route: Route, data: unknown): unknown {
  if (!restrictedKey(principal) || !data || typeof data !== 'object') return data;
  const embeds = route.resource?.embedPermissions;
  if (!embeds) return data;
  const hidden = Object.entries(embeds).filter(([, g]) => g && !mayRead(principal.permissions, g));
  if (!hidden.length) return data;
  const blank = (record: unknown) =>
    record && typeof record === 'object'
      ? { ...record, ...Object.fromEntries(hidden.filter(([k]) => k in record).map(([k]) => [k, null])) }
      : record;
  const page = data as { data?: unknown };
  return { ...page, data: Array.isArray(page.data) ? page.data.map(blank) : blank(page.data) };
}
