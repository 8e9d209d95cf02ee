'use client';
/**
 * The event catalogue: every type a webhook endpoint can receive, by resource, with when it is sent,
 * whether anything sends it today, and an example payload to copy. The list is the server's
 * (portal.events.catalogue), the same one GET /schema/events and OpenAPI's `webhooks` describe.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CopyButton } from '../../../_components/copy-button';
import { Badge, Empty, Field, LoadFailed, Loading, TextInput } from '../../../_components/ui';
import { portal, portalError } from '../../../_lib/trpc';

type Entry = Awaited<ReturnType<typeof portal.events.catalogue.query>>['data'][number];

/** The entries by resource, in the catalogue's order. */
function byResource(entries: readonly Entry[]): [string, Entry[]][] {
  const groups = new Map<string, Entry[]>();
  for (const e of entries) groups.set(e.resource, [...(groups.get(e.resource) ?? []), e]);
  return [...groups];
}

export function EventCatalogue() {
  const catalogue = useQuery({ queryKey: ['events', 'catalogue'], queryFn: () => portal.events.catalogue.query() });
  const [filter, setFilter] = useState('');
  const words = filter.trim().toLowerCase();
  const shown = (catalogue.data?.data ?? []).filter(
    (e) => !words || `${e.type} ${e.description}`.toLowerCase().includes(words),
  );
  const groups = byResource(shown);
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <nav aria-label="Breadcrumb" className="text-sm">
          <a href="/developers/webhooks" className="text-indigo-700 underline">
            Webhooks
          </a>{' '}
          › <span aria-current="page">Event types</span>
        </nav>
        <h1 className="text-2xl font-semibold">Event types</h1>
        <p className="max-w-prose text-sm text-slate-600">
          Every event an endpoint can subscribe to. Each delivery is a small JSON message naming the record that changed
          (<code>data.entity</code> and <code>data.id</code>), signed with the endpoint’s secret: fetch the record with
          your API key for its current state. The same list is in the{' '}
          <a href="/v3/api/openapi.json" className="text-indigo-700 underline">
            OpenAPI document
          </a>{' '}
          (its <code>webhooks</code>) and at GET /v3/api/schema/events.
        </p>
      </div>
      {catalogue.isPending && <Loading what="the event types" />}
      {catalogue.isError && (
        <LoadFailed message={portalError(catalogue.error).message} retry={() => void catalogue.refetch()} />
      )}
      {catalogue.data && (
        <>
          <div className="max-w-sm">
            <Field
              id="event-filter"
              label="Filter event types"
              hint="By name or description, e.g. patients or cancelled"
            >
              <TextInput
                id="event-filter"
                type="search"
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
                aria-describedby="event-filter-hint"
              />
            </Field>
          </div>
          {groups.length > 0 && (
            <nav aria-label="Resources" className="flex flex-wrap gap-2 text-sm">
              {groups.map(([resource]) => (
                <a
                  key={resource}
                  href={`#events-${resource}`}
                  className="inline-flex min-h-9 items-center rounded border border-slate-300 bg-white px-2 py-1 hover:bg-slate-100"
                >
                  {resource}
                </a>
              ))}
            </nav>
          )}
          {groups.length === 0 && <Empty>No event type matches “{filter.trim()}”.</Empty>}
          {groups.map(([resource, entries]) => (
            <section
              key={resource}
              id={`events-${resource}`}
              aria-labelledby={`events-${resource}-title`}
              className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
            >
              <h2 id={`events-${resource}-title`} className="text-lg font-semibold [overflow-wrap:anywhere]">
                {resource}
              </h2>
              <ul className="mt-2 flex flex-col divide-y divide-slate-100">
                {entries.map((e) => (
                  <EventType key={e.type} entry={e} />
                ))}
              </ul>
            </section>
          ))}
        </>
      )}
    </div>
  );
}

function EventType({ entry }: { entry: Entry }) {
  const example = JSON.stringify(entry.example, null, 2);
  return (
    // Side by side from a laptop's width, so 57 types do not make a page of payloads.
    <li className="grid gap-3 py-4 lg:grid-cols-2 lg:gap-6">
      <div className="flex min-w-0 flex-col gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-mono text-base font-semibold [overflow-wrap:anywhere]">{entry.type}</h3>
          {entry.fires ? <Badge tone="green">Fires today</Badge> : <Badge tone="slate">Does not fire yet</Badge>}
        </div>
        <p className="text-sm">{entry.description}</p>
        {!entry.fires && entry.reason && (
          <p className="text-sm text-slate-600">Why not yet: {entry.reason}. You can subscribe to it already.</p>
        )}
      </div>
      <figure className="flex min-w-0 flex-col gap-2">
        <figcaption className="text-xs font-medium uppercase text-slate-500">
          Example payload<span className="sr-only"> of {entry.type}</span>
        </figcaption>
        {/* Focusable: a payload wider than a phone scrolls sideways, by keyboard too. */}
        <pre tabIndex={0} className="overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
          <code>{example}</code>
        </pre>
        <div>
          <CopyButton value={example} label={`Copy the example payload of ${entry.type}`} />
        </div>
      </figure>
    </li>
  );
}
