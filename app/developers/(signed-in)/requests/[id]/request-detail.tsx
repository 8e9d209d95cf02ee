'use client';
/**
 * One logged request, as a developer debugging a call needs it: what was asked (method, path with its
 * query), what was answered (status, the error's code and message), how long it took, with which key,
 * from which address, its X-Request-Id and when. Its own address, to share; the list's filters ride
 * along in it, so the way back finds the list as it was.
 */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import type { ReactNode } from 'react';
import { CopyButton } from '../../../_components/copy-button';
import { Time, useFullTime } from '../../../_components/time';
import { Badge, Card, LoadFailed, Loading } from '../../../_components/ui';
import { portal, portalError } from '../../../_lib/trpc';
import { filtersFrom, searchOf } from '../request-filters';
import { statusTone } from '../request-log';

function Item({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium text-slate-600">{term}</dt>
      <dd className="min-w-0 text-sm [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

export function RequestDetail({ id }: { id: string }) {
  const params = useSearchParams();
  const back = `/developers/requests${searchOf(filtersFrom(params))}`;
  const valid = /^\d{1,10}$/.test(id);
  const request = useQuery({
    queryKey: ['requests.get', id],
    queryFn: () => portal.requests.get.query({ id: Number(id) }),
    enabled: valid,
    retry: false,
  });
  const r = request.data;
  const full = useFullTime();
  return (
    <div className="flex flex-col gap-6">
      <Link
        href={back}
        className="self-start text-sm text-indigo-700 underline underline-offset-2 hover:text-indigo-900"
      >
        ← Request log
      </Link>
      {!valid && (
        <LoadFailed
          message="This is not the address of a request: open one from the request log."
          retry={() => window.location.assign(back)}
        />
      )}
      {valid && request.isPending && <Loading what="the request" />}
      {request.isError && (
        <LoadFailed message={portalError(request.error).message} retry={() => void request.refetch()} />
      )}
      {r && (
        <>
          <h1 className="font-mono text-xl font-semibold [overflow-wrap:anywhere]">
            {r.method} {r.path}
          </h1>
          <Card title="Request">
            <dl className="divide-y divide-slate-100">
              <Item term="Time">
                <Time iso={r.created_at} />
                {/* In full as well: a debugging session matches it against the client's own logs. */}
                <p className="mt-1 text-slate-700">{full(r.created_at)}</p>
                <p className="font-mono text-xs text-slate-600">{r.created_at} (UTC)</p>
              </Item>
              <Item term="Method">
                <span className="font-mono">{r.method}</span>
              </Item>
              <Item term="Path">
                <span className="font-mono">
                  {r.path}
                  {r.query ? `?${r.query}` : ''}
                </span>
                {r.query?.includes('***') && (
                  <p className="mt-1 text-xs text-slate-600">
                    Values shown as *** were not kept: they can name a patient (names, emails, dates of birth).
                  </p>
                )}
              </Item>
              <Item term="Status">
                <Badge tone={statusTone(r.status)}>{r.status}</Badge>
              </Item>
              <Item term="Error">
                {r.error ? (
                  <>
                    <span className="font-mono">{r.error.code}</span>
                    {r.error.message && <p className="mt-1">{r.error.message}</p>}
                  </>
                ) : r.status >= 400 ? (
                  <span className="text-slate-600">Not recorded</span>
                ) : (
                  <span className="text-slate-600">None</span>
                )}
              </Item>
              <Item term="Duration">{r.duration_ms} ms</Item>
              <Item term="API key">
                {r.key ? (
                  (r.key.name ?? `Deleted key #${r.key.id}`)
                ) : (
                  <span className="text-slate-600">None: the request carried no valid key</span>
                )}
              </Item>
              <Item term="Client address">
                {r.client_ip ? (
                  <span className="font-mono">{r.client_ip}</span>
                ) : (
                  <span className="text-slate-600">Not recorded</span>
                )}
              </Item>
              <Item term="X-Request-Id">
                <span className="flex flex-wrap items-center gap-2">
                  <span className="font-mono">{r.request_id}</span>
                  <CopyButton value={r.request_id} label="Copy the X-Request-Id" />
                </span>
              </Item>
            </dl>
            <p className="mt-2 text-xs text-slate-600">
              Bodies are not kept: they carry patient data. An error keeps its code and message.
            </p>
          </Card>
        </>
      )}
    </div>
  );
}
