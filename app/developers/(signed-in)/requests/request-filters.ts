/**
 * The request log's filters as the page's address holds them (`?status_class=4xx&from=…`): Back, a
 * reload and a shared link restore them. The parameter names are the list procedure's own.
 */
import type { portal } from '../../_lib/trpc';

type ListInput = NonNullable<Parameters<typeof portal.requests.list.query>[0]>;
export type RequestFilters = Omit<ListInput, 'before'>;
export type StatusClass = NonNullable<RequestFilters['status_class']>;
export type Method = NonNullable<RequestFilters['method']>;

/** Every status class and method the server filters by, with what a person reads (typed: none is left out). */
export const STATUS_LABELS: Record<StatusClass, string> = {
  '2xx': '2xx success',
  '3xx': '3xx redirect',
  '4xx': '4xx client error',
  '5xx': '5xx server error',
};
export const METHOD_LABELS: Record<Method, string> = {
  GET: 'GET',
  POST: 'POST',
  PATCH: 'PATCH',
  DELETE: 'DELETE',
  PUT: 'PUT',
  HEAD: 'HEAD',
  OPTIONS: 'OPTIONS',
};

const TEXT = ['request_id', 'from', 'to', 'path'] as const;
const oneOf = <T extends string>(labels: Record<T, string>, v: string | null): T | undefined =>
  v !== null && Object.hasOwn(labels, v) ? (v as T) : undefined;

/** The filters of an address; anything it does not recognise is left out. */
export function filtersFrom(params: URLSearchParams): RequestFilters {
  const f: RequestFilters = {};
  for (const name of TEXT) {
    const v = params.get(name)?.trim();
    if (v) f[name] = v;
  }
  const key = params.get('key_id');
  if (key && /^\d{1,10}$/.test(key)) f.key_id = Number(key);
  f.status_class = oneOf(STATUS_LABELS, params.get('status_class'));
  f.method = oneOf(METHOD_LABELS, params.get('method'));
  return f;
}

/** `?…` for the filters set, in a fixed order (empty when none is). */
export function searchOf(f: RequestFilters): string {
  const params = new URLSearchParams();
  for (const name of ['request_id', 'from', 'to', 'status_class', 'method', 'key_id', 'path'] as const) {
    const v = f[name];
    if (v !== undefined && v !== '') params.set(name, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}
