'use client';
/**
 * REST requests of the last 90 days, newest first, a page at a time: found by X-Request-Id, days (in
 * the clinic's zone), status class, method, key and path. The filters are the page's address (Back, a
 * reload and a shared link restore them); typed ones are sent once typing pauses, not per keystroke.
 * Each row opens the request's detail.
 */
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Time, useClinicZone } from '../../_components/time';
import {
  Badge,
  Button,
  Card,
  Cell,
  Empty,
  Field,
  LoadFailed,
  Loading,
  Row,
  Select,
  Table,
  TextInput,
} from '../../_components/ui';
import { portal, portalError } from '../../_lib/trpc';
import {
  filtersFrom,
  METHOD_LABELS,
  searchOf,
  STATUS_LABELS,
  type Method,
  type RequestFilters,
  type StatusClass,
} from './request-filters';

/** How long typing must pause before a typed filter is sent. */
const TYPING_PAUSE_MS = 400;

export const statusTone = (status: number) => (status < 300 ? 'green' : status < 500 ? 'amber' : 'red');

/**
 * A typed filter: what is typed shows at once, and goes to the address once typing pauses. A change of
 * the address from elsewhere (Back, Clear) replaces what is typed; the page's own commit does not.
 */
function useTypedFilter(
  committed: string | undefined,
  commit: (v: string | undefined) => void,
): [string, (v: string) => void] {
  const [text, setText] = useState(committed ?? '');
  const sent = useRef(committed);
  useEffect(() => {
    if (committed !== sent.current) {
      sent.current = committed;
      setText(committed ?? '');
    }
  }, [committed]);
  useEffect(() => {
    const value = text.trim() || undefined;
    if (value === sent.current) return;
    const timer = setTimeout(() => {
      sent.current = value;
      commit(value);
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
    // Only the text starts a wait (commit is a new function at every render).
  }, [text]);
  return [text, setText];
}

export function RequestLog() {
  const params = useSearchParams();
  const pathname = usePathname();
  const search = params.toString();
  const filters = useMemo(() => filtersFrom(new URLSearchParams(search)), [search]);
  const zone = useClinicZone();
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => portal.keys.list.query() });

  // Read at call time: two typed filters may commit one after the other before a render.
  const update = (patch: Partial<RequestFilters>) => {
    const next = { ...filtersFrom(new URLSearchParams(window.location.search)), ...patch };
    window.history.replaceState(null, '', `${pathname}${searchOf(next)}`);
  };
  const [requestId, setRequestId] = useTypedFilter(filters.request_id, (v) => update({ request_id: v }));
  const [path, setPath] = useTypedFilter(filters.path, (v) => update({ path: v }));

  // A range the wrong way round is said, not sent (it would only be refused).
  const backwards = Boolean(filters.from && filters.to && filters.from > filters.to);
  const sent: RequestFilters = backwards ? { ...filters, to: undefined } : filters;
  const log = useInfiniteQuery({
    queryKey: ['requests', sent],
    queryFn: ({ pageParam }) => portal.requests.list.query({ ...sent, before: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_before ?? undefined,
    placeholderData: keepPreviousData,
  });
  const rows = log.data?.pages.flatMap((p) => p.data) ?? [];
  const filtered = Object.values(filters).some((v) => v !== undefined);

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold">Request log</h1>
        <p className="mt-1 text-sm text-slate-600">
          REST requests to this clinic, kept for 90 days; they appear within about five seconds. Open one to see its
          detail. Bodies are not kept (they carry patient data), nor query values that can name a patient.
        </p>
      </div>
      <Card title="Filters">
        <form
          aria-label="Filter requests"
          className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4 lg:items-start"
          onSubmit={(e) => e.preventDefault()}
        >
          <div className="sm:col-span-2">
            <Field id="filter-request-id" label="Request id" hint="The X-Request-Id header of a response">
              <TextInput
                id="filter-request-id"
                value={requestId}
                onChange={(e) => setRequestId(e.target.value)}
                spellCheck={false}
                autoComplete="off"
                className="rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm"
                aria-describedby="filter-request-id-hint"
              />
            </Field>
          </div>
          <Field id="filter-from" label="From">
            <TextInput
              id="filter-from"
              type="date"
              value={filters.from ?? ''}
              max={filters.to}
              onChange={(e) => update({ from: e.target.value || undefined })}
              aria-describedby="requests-zone"
            />
          </Field>
          <Field
            id="filter-to"
            label="To (included)"
            error={backwards ? 'The end day is before the start day: pick a later one.' : undefined}
          >
            <TextInput
              id="filter-to"
              type="date"
              value={filters.to ?? ''}
              min={filters.from}
              onChange={(e) => update({ to: e.target.value || undefined })}
              error={backwards ? 'backwards' : undefined}
            />
          </Field>
          <Field id="filter-status" label="Status">
            <Select
              id="filter-status"
              value={filters.status_class ?? ''}
              onChange={(e) => update({ status_class: (e.target.value || undefined) as StatusClass | undefined })}
            >
              <option value="">Any status</option>
              {Object.entries(STATUS_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="filter-method" label="Method">
            <Select
              id="filter-method"
              value={filters.method ?? ''}
              onChange={(e) => update({ method: (e.target.value || undefined) as Method | undefined })}
            >
              <option value="">Any method</option>
              {Object.keys(METHOD_LABELS).map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="filter-key" label="API key">
            <Select
              id="filter-key"
              value={filters.key_id ?? ''}
              onChange={(e) => update({ key_id: e.target.value ? Number(e.target.value) : undefined })}
            >
              <option value="">All keys</option>
              {keys.data?.data.map((k) => (
                <option key={k.id} value={k.id}>
                  {k.name} ({k.start}…)
                </option>
              ))}
            </Select>
          </Field>
          <Field id="filter-path" label="Path starts with" hint="Below /v3/api, e.g. /patients">
            <TextInput
              id="filter-path"
              value={path}
              onChange={(e) => setPath(e.target.value)}
              placeholder="/patients"
              spellCheck={false}
              autoComplete="off"
              aria-describedby="filter-path-hint"
            />
          </Field>
          <div className="flex flex-wrap items-center gap-3 sm:col-span-2 lg:col-span-4">
            <p id="requests-zone" className="text-xs text-slate-500">
              Days and times are the clinic&rsquo;s, in {zone}.
            </p>
            {filtered && (
              <Button tone="secondary" onClick={() => window.history.replaceState(null, '', pathname)}>
                Clear filters
              </Button>
            )}
          </div>
        </form>
      </Card>
      <Card title="Requests">
        {log.isPending && <Loading what="requests" />}
        {log.isError && <LoadFailed message={portalError(log.error).message} retry={() => void log.refetch()} />}
        {log.isSuccess && rows.length === 0 && (
          <Empty>
            {filtered
              ? 'No requests match these filters.'
              : 'No requests yet. Calls to the REST API with a key of this clinic show up here.'}
          </Empty>
        )}
        {rows.length > 0 && (
          <Table stacked caption="REST requests, newest first" head={['When', 'Request', 'Status', 'Duration', 'Key']}>
            {rows.map((r) => (
              <Row key={r.id}>
                <Cell label="When" className="whitespace-nowrap">
                  <Time iso={r.created_at} />
                </Cell>
                <Cell label="Request" className="font-mono text-xs">
                  <Link
                    href={`/developers/requests/${r.id}${search ? `?${search}` : ''}`}
                    className="text-indigo-700 underline underline-offset-2 [overflow-wrap:anywhere] hover:text-indigo-900"
                  >
                    {r.method} {r.path}
                    {r.query ? `?${r.query}` : ''}
                  </Link>
                </Cell>
                <Cell label="Status">
                  <span className="flex flex-wrap items-center gap-2">
                    <Badge tone={statusTone(r.status)}>{r.status}</Badge>
                    {r.error && <span className="font-mono text-xs text-slate-700">{r.error.code}</span>}
                  </span>
                </Cell>
                <Cell label="Duration" className="whitespace-nowrap">
                  {r.duration_ms} ms
                </Cell>
                <Cell label="Key">
                  {r.key ? (
                    <>
                      {r.key.name ?? `Deleted key #${r.key.id}`}
                      {r.status === 401 && (
                        <span className="block text-xs text-slate-600">refused: revoked or expired</span>
                      )}
                    </>
                  ) : (
                    <span className="text-slate-600">no key, or an unknown one</span>
                  )}
                </Cell>
              </Row>
            ))}
          </Table>
        )}
        {log.hasNextPage && (
          <Button
            tone="secondary"
            className="mt-4"
            onClick={() => void log.fetchNextPage()}
            disabled={log.isFetchingNextPage}
          >
            {log.isFetchingNextPage ? 'Loading…' : 'Load older requests'}
          </Button>
        )}
      </Card>
    </div>
  );
}
