'use client';
/** REST requests of the last 90 days: filtered by key, status class and path; newest first, a page at a time. */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge, Button, Card, Empty, Field, LoadFailed, Loading, Select, Table, TextInput, when } from '../../_components/ui';
import { portal, portalError } from '../../_lib/trpc';

type StatusClass = '2xx' | '3xx' | '4xx' | '5xx';

const tone = (status: number) => (status < 300 ? 'green' : status < 500 ? 'amber' : 'red');

export function RequestLog() {
  const [keyId, setKeyId] = useState('');
  const [statusClass, setStatusClass] = useState<StatusClass | ''>('');
  const [path, setPath] = useState('');
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => portal.keys.list.query() });
  const filters = { key_id: keyId ? Number(keyId) : undefined, status_class: statusClass || undefined, path: path.trim() || undefined };
  const log = useInfiniteQuery({
    queryKey: ['requests', filters],
    queryFn: ({ pageParam }) => portal.requests.list.query({ ...filters, before: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_before ?? undefined,
  });
  const rows = log.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Request log</h1>
      <p className="text-sm text-slate-600">REST requests to this clinic, kept for 90 days. Entries appear within about five seconds of the request.</p>
      <Card title="Filters">
        <div className="grid gap-4 sm:grid-cols-3">
          <Field id="filter-key" label="API key">
            <Select id="filter-key" value={keyId} onChange={(e) => setKeyId(e.target.value)}>
              <option value="">All keys</option>
              {keys.data?.data.map((k) => (
                <option key={k.id} value={k.id}>
                  {k.name} ({k.start}…)
                </option>
              ))}
            </Select>
          </Field>
          <Field id="filter-status" label="Status">
            <Select id="filter-status" value={statusClass} onChange={(e) => setStatusClass(e.target.value as StatusClass | '')}>
              <option value="">Any status</option>
              <option value="2xx">2xx success</option>
              <option value="3xx">3xx</option>
              <option value="4xx">4xx client error</option>
              <option value="5xx">5xx server error</option>
            </Select>
          </Field>
          <Field id="filter-path" label="Path starts with" hint="Below /v3/api, e.g. /patients">
            <TextInput id="filter-path" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/patients" />
          </Field>
        </div>
      </Card>
      <Card title="Requests">
        {log.isPending && <Loading what="requests" />}
        {log.isError && <LoadFailed message={portalError(log.error).message} retry={() => void log.refetch()} />}
        {log.isSuccess && rows.length === 0 && <Empty>No requests match. Calls to the REST API with a key of this clinic show up here.</Empty>}
        {rows.length > 0 && (
          <Table caption="REST requests, newest first" head={['When', 'Method', 'Path', 'Status', 'Duration', 'Key', 'Request id']}>
            {rows.map((r) => (
              <tr key={r.id}>
                <td className="whitespace-nowrap px-2 py-2">{when(r.created_at)}</td>
                <td className="px-2 py-2 font-mono text-xs">{r.method}</td>
                <td className="px-2 py-2 font-mono text-xs">{r.path}</td>
                <td className="px-2 py-2">
                  <Badge tone={tone(r.status)}>{r.status}</Badge>
                </td>
                <td className="px-2 py-2">{r.duration_ms} ms</td>
                <td className="px-2 py-2">{r.key ? (r.key.name ?? `#${r.key.id}`) : <span className="text-slate-500">none</span>}</td>
                <td className="px-2 py-2 font-mono text-xs">{r.request_id}</td>
              </tr>
            ))}
          </Table>
        )}
        {log.hasNextPage && (
          <Button tone="secondary" className="mt-4" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
            {log.isFetchingNextPage ? 'Loading…' : 'Load older requests'}
          </Button>
        )}
      </Card>
    </div>
  );
}
