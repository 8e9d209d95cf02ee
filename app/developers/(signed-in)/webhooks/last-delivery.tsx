'use client';
/** How an endpoint's last attempt went, in words, with its time. */
import { Time } from '../../_components/time';
import { Badge } from '../../_components/ui';

export interface LastAttempt {
  at: string;
  ok: boolean;
  status_code: number | null;
  error: string | null;
}

export function LastDelivery({ last }: { last: LastAttempt | null }) {
  if (!last) return <span className="text-slate-600">No delivery attempts yet</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      {last.ok ? <Badge tone="green">Delivered</Badge> : <Badge tone="red">Failed</Badge>}
      <span>{last.status_code !== null ? `HTTP ${last.status_code}` : last.error}</span>
      <Time iso={last.at} />
    </span>
  );
}
