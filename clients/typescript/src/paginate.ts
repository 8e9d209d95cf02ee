import type { ClinicClient } from './client';
import { ClinicApiError } from './errors';
import type { paths } from './schema';

type GetOf<P extends keyof paths> = paths[P] extends { get: infer Op } ? Op : never;
type QueryOf<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type ListOf<Op> = Op extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never;

/** The paths whose GET pages with a cursor: no path parameter, a `cursor` query parameter, a list answer. */
export type CursorPath = {
  [P in keyof paths]: GetOf<P> extends { parameters: { path?: undefined } }
    ? [QueryOf<GetOf<P>>] extends [never]
      ? never
      : 'cursor' extends keyof QueryOf<GetOf<P>>
        ? ListOf<GetOf<P>> extends { data: unknown[]; links: { next: string | null } }
          ? P
          : never
        : never
    : never;
}[keyof paths];

/** One record of the list at `P` (`Patient` for '/patients'). */
export type ItemOf<P extends CursorPath> = ListOf<GetOf<P>> extends { data: (infer Item)[] } ? Item : never;

/** The list's filters, sort and page_size (the cursor and page are the iterator's). */
export type PaginateQuery<P extends CursorPath> = Omit<QueryOf<GetOf<P>>, 'cursor' | 'page'>;

export interface PaginateOptions<P extends CursorPath> {
  query?: PaginateQuery<P>;
  signal?: AbortSignal;
}

/** What the loop needs of `client.GET`, for any list path at once (openapi-fetch types one path per call). */
type GetList = (
  path: string,
  init: { params: { query: Record<string, unknown> }; signal?: AbortSignal },
) => Promise<{ data?: { data: unknown[]; links: { next: string | null } }; error?: unknown; response: Response }>;

/**
 * Every record of a list, page after page, with cursor paging (stable under concurrent writes, unlike
 * offset pages): `for await (const patient of paginate(client, '/patients', { query: { page_size: 100 } }))`.
 * An error answer is thrown as a ClinicApiError.
 */
export async function* paginate<P extends CursorPath>(
  client: ClinicClient,
  path: P,
  options: PaginateOptions<P> = {},
): AsyncGenerator<ItemOf<P>, void, undefined> {
  const get = client.GET as unknown as GetList;
  // An empty cursor asks for the first page of keyset paging; each page's links.next carries the next.
  let cursor = '';
  for (;;) {
    const { data, error, response } = await get(path, {
      params: { query: { ...options.query, cursor } },
      signal: options.signal,
    });
    if (!data) throw new ClinicApiError(response, error);
    for (const item of data.data) yield item as ItemOf<P>;
    const next =
      data.links.next === null
        ? null
        : new URL(data.links.next, response.url || 'http://localhost').searchParams.get('cursor');
    if (!next) return;
    cursor = next;
  }
}
