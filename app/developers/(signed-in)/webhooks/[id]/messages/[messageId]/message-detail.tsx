'use client';
/**
 * One message to one endpoint, as GitHub's "Recent deliveries" shows one: the payload sent, then every
 * attempt, newest first, with the request headers it sent (the signature included: it is no secret,
 * the receiver got it; the endpoint's secret never shows here), its status, duration and time, and the
 * first kilobyte of the response body, as text. Replay sends it again; the new attempt shows when made.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { ConfirmDialog } from '../../../../../_components/confirm-dialog';
import { Time } from '../../../../../_components/time';
import { Alert, Badge, Button, LoadFailed, Loading } from '../../../../../_components/ui';
import { portal, portalError } from '../../../../../_lib/trpc';
import { MessageBadge } from '../../message-badge';

/** The response body is kept up to this many bytes (server/outbound.ts RESPONSE_KEEP). */
const KEPT = '1 KB';

export function MessageDetail({ endpointId, messageId }: { endpointId: number; messageId: number }) {
  const queries = useQueryClient();
  const detail = useQuery({
    queryKey: ['webhooks', 'message', endpointId, messageId],
    queryFn: () => portal.webhooks.message.query({ endpoint_id: endpointId, message_id: messageId }),
    // Polled while an attempt is still to come, so a replay's attempt shows when it is made.
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? 1500 : false),
  });
  const back = (
    <Link href={`/developers/webhooks/${endpointId}`} className="text-sm text-indigo-700 underline">
      ← The endpoint’s messages
    </Link>
  );
  if (detail.isPending) return <Loading what="the message" />;
  if (detail.isError) {
    const err = portalError(detail.error);
    return (
      <div className="flex flex-col gap-4">
        {back}
        <h1 className="text-2xl font-semibold">Webhook message</h1>
        {err.code === 'not_found' ? (
          <Alert>This clinic has no such webhook message. Its endpoint may have been deleted.</Alert>
        ) : (
          <LoadFailed message={err.message} retry={() => void detail.refetch()} />
        )}
      </div>
    );
  }
  const m = detail.data;
  const replay = async () => {
    await portal.webhooks.replay.mutate({ event_id: m.event_id, endpoint_id: endpointId });
    await queries.invalidateQueries({ queryKey: ['webhooks'] });
  };
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        {back}
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="font-mono text-xl font-semibold [overflow-wrap:anywhere]">{m.event_type}</h1>
          <MessageBadge status={m.status} attempts={m.attempts.length} />
        </div>
        <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-slate-500">Event id</dt>
          <dd className="font-mono text-xs [overflow-wrap:anywhere]">{m.event_id}</dd>
          <dt className="text-slate-500">Created</dt>
          <dd>
            <Time iso={m.created_at} />
          </dd>
          <dt className="text-slate-500">Next attempt</dt>
          <dd>{m.status === 'waiting' ? 'when the endpoint is enabled' : <Time iso={m.next_attempt_at} />}</dd>
        </dl>
        <div>
          <ConfirmDialog
            trigger={<Button tone="secondary">Replay message</Button>}
            title="Replay this message?"
            confirm="Replay message"
            tone="primary"
            onConfirm={replay}
          >
            <p>
              The {m.event_type} message is sent again to the endpoint now (or when it is enabled), signed afresh, with
              the same <code>webhook-id</code> so your receiver can tell it is the same event.
            </p>
          </ConfirmDialog>
        </div>
      </div>

      <section
        aria-labelledby="payload-heading"
        className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
      >
        <h2 id="payload-heading" className="mb-2 text-lg font-semibold">
          Payload
        </h2>
        <pre
          tabIndex={0}
          aria-label="Payload"
          className="whitespace-pre-wrap rounded bg-slate-50 p-3 text-xs [overflow-wrap:anywhere]"
        >
          {m.payload}
        </pre>
      </section>

      <section aria-labelledby="attempts-heading" className="flex flex-col gap-3">
        <h2 id="attempts-heading" className="text-lg font-semibold">
          Attempts ({m.attempts.length})
        </h2>
        {m.attempts.length === 0 && <p className="text-sm text-slate-600">No attempt yet.</p>}
        <ol className="flex flex-col gap-3">
          {m.attempts.map((a, i) => (
            <li key={a.id}>
              <article
                aria-label={`Attempt ${m.attempts.length - i}`}
                className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
              >
                <h3 className="flex flex-wrap items-center gap-2 text-sm font-semibold">
                  Attempt {m.attempts.length - i}
                  {a.ok ? <Badge tone="green">Succeeded</Badge> : <Badge tone="red">Failed</Badge>}
                </h3>
                <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
                  <dt className="text-slate-500">Response</dt>
                  <dd>{a.status_code !== null ? `HTTP ${a.status_code}` : `No response (${a.error})`}</dd>
                  <dt className="text-slate-500">Duration</dt>
                  <dd>{a.duration_ms} ms</dd>
                  <dt className="text-slate-500">Sent</dt>
                  <dd>
                    <Time iso={a.created_at} />
                  </dd>
                  <dt className="text-slate-500">Why</dt>
                  <dd>
                    {a.trigger === 'manual'
                      ? 'replayed by a member'
                      : a.trigger === 'test'
                        ? 'test event'
                        : 'scheduled delivery'}
                  </dd>
                </dl>
                <h4 className="mt-3 text-sm font-medium">Request headers</h4>
                {a.request_headers ? (
                  <dl className="mt-1 grid gap-x-4 rounded bg-slate-50 p-3 font-mono text-xs sm:grid-cols-[auto_1fr]">
                    {Object.entries(a.request_headers).map(([name, value]) => (
                      <div key={name} className="contents">
                        <dt className="text-slate-600">{name}</dt>
                        <dd className="mb-1 [overflow-wrap:anywhere]">{value}</dd>
                      </div>
                    ))}
                  </dl>
                ) : (
                  <p className="mt-1 text-xs text-slate-600">
                    Not recorded for this attempt (made before the portal kept them).
                  </p>
                )}
                <h4 className="mt-3 text-sm font-medium">Response body (first {KEPT}, as text)</h4>
                {a.response_body ? (
                  // Text in a <pre>: React escapes it, so a receiver's HTML shows as written, never rendered.
                  <pre
                    tabIndex={0}
                    aria-label={`Response body of attempt ${m.attempts.length - i}`}
                    className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-3 text-xs [overflow-wrap:anywhere]"
                  >
                    {a.response_body}
                  </pre>
                ) : (
                  <p className="mt-1 text-xs text-slate-600">Empty.</p>
                )}
              </article>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
