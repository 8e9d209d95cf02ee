/** What a route is, for the document: the resource it serves and which of its operations it is. */
import type { Resource } from '../../resources/define';
import { RESOURCES } from '../../resources';
import type { Route } from '../routes';

export type Json = Record<string, unknown>;

export type OperationKind = 'list' | 'get' | 'create' | 'update' | 'delete' | 'action' | 'other';

export interface Operation {
  route: Route;
  /** The resource named by the first path segment, if it is one. */
  resource?: Resource;
  kind: OperationKind;
  /** The state change of POST /{resource}/{id}/{action}. */
  action?: string;
}

const KINDS = new Set<OperationKind>(['list', 'get', 'create', 'update', 'delete']);

export function operationOf(route: Route): Operation {
  const name = route.path.split('/')[1];
  const resource = Object.hasOwn(RESOURCES, name) ? RESOURCES[name] : undefined;
  const last = route.procedurePath.split('.').at(-1) as OperationKind;
  const action = route.method === 'POST' ? /^\/\w+\/\{id\}\/(\w+)$/.exec(route.path)?.[1] : undefined;
  if (action) return { route, resource, kind: 'action', action };
  return { route, resource, kind: resource && KINDS.has(last) ? last : 'other' };
}
