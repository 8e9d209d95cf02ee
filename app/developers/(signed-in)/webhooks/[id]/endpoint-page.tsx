'use client';
/**
 * One webhook endpoint: what it is and how its last delivery went, its actions, delivery success over
 * time, its settings, recovery, and its messages. The chart's period and the messages' filters are the
 * page's address (each change a history entry: Back undoes it; a reload or a shared link restores it).
 */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { useMemo } from 'react';
import { Time } from '../../../_components/time';
import { Alert, Badge, LoadFailed, Loading } from '../../../_components/ui';
import { portal, portalError } from '../../../_lib/trpc';
import { LastDelivery } from '../last-delivery';
import { REFRESH_MS } from '../webhooks-list';
import { DeliveryChart } from './delivery-chart';
import { EndpointActions } from './endpoint-actions';
import { EndpointSettings } from './endpoint-settings';
import { MessageList } from './message-list';
import { searchOf, stateFrom, type PageState } from './message-filters';
import { RecoverFailed } from './recover-failed';

export function EndpointPage({ id }: { id: number }) {
  const got = useQuery({
    queryKey: ['webhooks', 'endpoint', id],
    queryFn: () => portal.webhooks.get.query({ id }),
    refetchInterval: REFRESH_MS,
  });
  const params = useSearchParams();
  const pathname = usePathname();
  const search = params.toString();
  const types = useMemo(() => got.data?.message_types ?? [], [got.data]);
  const state = useMemo(() => stateFrom(new URLSearchParams(search), types), [search, types]);
  const update = (patch: Partial<PageState>) => {
    const next = { ...stateFrom(new URLSearchParams(window.location.search), types), ...patch };
    window.history.pushState(null, '', `${pathname}${searchOf(next)}`);
  };

  const back = (
    <Link href="/developers/webhooks" className="text-sm text-indigo-700 underline">
      ← All endpoints
    </Link>
  );
  if (got.isPending) return <Loading what="the endpoint" />;
  if (got.isError) {
    const err = portalError(got.error);
    return (
      <div className="flex flex-col gap-4">
        {back}
        <h1 className="text-2xl font-semibold">Webhook endpoint</h1>
        {err.code === 'not_found' ? (
          <Alert>This clinic has no such webhook endpoint. It may have been deleted.</Alert>
        ) : (
          <LoadFailed message={err.message} retry={() => void got.refetch()} />
        )}
      </div>
    );
  }
  const { endpoint, event_types } = got.data;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        {back}
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="min-w-0 font-mono text-xl font-semibold [overflow-wrap:anywhere]">{endpoint.url}</h1>
          {endpoint.enabled ? <Badge tone="green">Enabled</Badge> : <Badge tone="red">Disabled</Badge>}
        </div>
        {endpoint.description && (
          <p className="text-sm text-slate-700 [overflow-wrap:anywhere]">{endpoint.description}</p>
        )}
        <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-slate-500">Receives</dt>
          <dd className="[overflow-wrap:anywhere]">
            {endpoint.events === 'all' ? 'All event types' : endpoint.events.join(', ')}
          </dd>
          <dt className="text-slate-500">Last delivery</dt>
          <dd>
            <LastDelivery last={endpoint.last_attempt} />
          </dd>
          {endpoint.rotating_until && (
            <>
              <dt className="text-slate-500">Previous secret</dt>
              <dd>
                also signs until <Time iso={endpoint.rotating_until} />
              </dd>
            </>
          )}
        </dl>
      </div>
      {!endpoint.enabled && (
        <Alert tone="warning">
          <p className="font-semibold">
            This endpoint is disabled{endpoint.disabled_reason ? `: ${endpoint.disabled_reason}` : ''}.
          </p>
          <p>New events wait while it is disabled (listed as waiting below); enabling it sends them, oldest first.</p>
        </Alert>
      )}
      <EndpointActions endpoint={endpoint} />
      <DeliveryChart id={id} range={state.range} onRange={(range) => update({ range })} />
      <MessageList id={id} state={state} types={types} onFilter={update} />
      <RecoverFailed id={id} />
      <EndpointSettings endpoint={endpoint} types={event_types} />
    </div>
  );
}
