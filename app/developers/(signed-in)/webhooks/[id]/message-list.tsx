'use client';
/** An endpoint's messages, newest first, a page at a time (keyset), filtered by status and event type; each opens its detail. */
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Time } from '../../../_components/time';
import { Button, Cell, Empty, Field, LoadFailed, Loading, Row, Select, Table } from '../../../_components/ui';
import { portal, portalError } from '../../../_lib/trpc';
import { MessageBadge, RetryNote } from './message-badge';
import { STATUS_LABELS, type MessageStatus, type PageState } from './message-filters';

export function MessageList({
  id,
  state,
  types,
  onFilter,
}: {
  id: number;
  state: PageState;
  types: readonly string[];
  onFilter: (patch: Partial<PageState>) => void;
}) {
  const filter = { status: state.status, event_type: state.type };
  const messages = useInfiniteQuery({
    queryKey: ['webhooks', 'messages', id, filter],
    queryFn: ({ pageParam }) => portal.webhooks.messagePage.query({ id, ...filter, cursor: pageParam }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
  const rows = messages.data?.pages.flatMap((p) => p.data) ?? [];
  const maxAttempts = messages.data?.pages[0]?.max_attempts ?? 0;
  const filtered = Boolean(state.status || state.type);
  return (
    <section
      aria-labelledby="messages-heading"
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <h2 id="messages-heading" className="mb-3 text-lg font-semibold">
        Messages
      </h2>
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <Field id="filter-status" label="Status">
          <Select
            id="filter-status"
            value={state.status ?? ''}
            onChange={(e) => onFilter({ status: (e.target.value || undefined) as MessageStatus | undefined })}
          >
            <option value="">Any status</option>
            {(Object.keys(STATUS_LABELS) as MessageStatus[]).map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="filter-type" label="Event type">
          <Select
            id="filter-type"
            value={state.type ?? ''}
            onChange={(e) => onFilter({ type: e.target.value || undefined })}
          >
            <option value="">Any event type</option>
            {types.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </Select>
        </Field>
        {filtered && (
          <Button tone="secondary" onClick={() => onFilter({ status: undefined, type: undefined })}>
            Clear filters
          </Button>
        )}
      </div>
      {messages.isPending && <Loading what="messages" />}
      {messages.isError && (
        <LoadFailed message={portalError(messages.error).message} retry={() => void messages.refetch()} />
      )}
      {messages.data && !rows.length && (
        <Empty>
          {filtered
            ? 'No messages match these filters.'
            : 'No messages yet. Send a test event, or make a change over the API.'}
        </Empty>
      )}
      {rows.length > 0 && (
        <Table
          stacked
          caption="Messages, newest first"
          head={['Event', 'Status', 'Attempts', 'Created', 'Next attempt']}
        >
          {rows.map((m) => (
            <Row key={m.id}>
              <Cell label="Event">
                <Link
                  href={`/developers/webhooks/${id}/messages/${m.id}`}
                  className="font-mono text-xs text-indigo-700 underline"
                >
                  {m.event_type}
                </Link>
                <span className="block font-mono text-xs text-slate-500 [overflow-wrap:anywhere]">{m.event_id}</span>
              </Cell>
              <Cell label="Status">
                <MessageBadge status={m.status} attempts={m.attempts} />
                <RetryNote
                  status={m.status}
                  attempts={m.attempts}
                  nextAttemptAt={m.next_attempt_at}
                  maxAttempts={maxAttempts}
                />
              </Cell>
              <Cell label="Attempts" className="text-xs">
                {m.attempts}
                {m.last_status !== null && <span className="text-slate-600"> (last HTTP {m.last_status})</span>}
              </Cell>
              <Cell label="Created" className="text-xs">
                <Time iso={m.created_at} />
              </Cell>
              <Cell label="Next attempt" className="text-xs">
                <Time iso={m.next_attempt_at} />
              </Cell>
            </Row>
          ))}
        </Table>
      )}
      {messages.hasNextPage && (
        <div className="mt-3">
          <Button tone="secondary" onClick={() => void messages.fetchNextPage()} disabled={messages.isFetchingNextPage}>
            {messages.isFetchingNextPage ? 'Loading…' : 'Show older messages'}
          </Button>
        </div>
      )}
    </section>
  );
}
