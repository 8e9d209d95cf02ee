'use client';
/**
 * Webhook endpoints: each with its status, what it receives and how its last delivery went (read from
 * its attempts, refreshed while the page is open), opening its own page; and the form to add one. A new
 * endpoint's signing secret shows in its own entry, named, with Copy, until the page is left.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { CopyField } from '../../_components/copy-button';
import { Time } from '../../_components/time';
import { Alert, Badge, Button, Card, Empty, Field, LoadFailed, Loading, TextInput } from '../../_components/ui';
import { useFormAction } from '../../_lib/form';
import { portal, portalError } from '../../_lib/trpc';
import { EventTypesField, type EventChoice } from './event-types-field';
import { LastDelivery } from './last-delivery';

type List = Awaited<ReturnType<typeof portal.webhooks.list.query>>;
type EventTypeInfo = List['event_types'][number];
type Shown = { id: number; value: string };

/** How often an open list reads its endpoints again: a delivery shows within this. */
export const REFRESH_MS = 5000;

function AddEndpoint({
  types,
  targets,
  onAdded,
}: {
  types: readonly EventTypeInfo[];
  targets: List['targets'];
  onAdded: (id: number, secret: string) => void;
}) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventChoice>('all');
  const queries = useQueryClient();
  const { submit, pending, error } = useFormAction(
    () => portal.webhooks.create.mutate({ url, description: description || null, events }),
    (r) => {
      onAdded(r.endpoint.id, r.secret);
      setUrl('');
      setDescription('');
      setEvents('all');
      void queries.invalidateQueries({ queryKey: ['webhooks'] });
    },
  );
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="endpoint-url"
          label="Endpoint URL"
          hint={`${targets.private_allowed ? 'http or https, loopback and private addresses allowed here (WEBHOOKS_ALLOW_PRIVATE)' : 'https only, at a public address'}; it must answer 2xx within ${Math.round(targets.timeout_ms / 1000)} seconds`}
          error={error?.errors.url?.[0]}
        >
          <TextInput
            id="endpoint-url"
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://example.com/webhooks/clinic"
            error={error?.errors.url?.[0]}
          />
        </Field>
        <Field id="endpoint-description" label="Description (optional)" error={error?.errors.description?.[0]}>
          <TextInput
            id="endpoint-description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            error={error?.errors.description?.[0]}
          />
        </Field>
      </div>
      <EventTypesField
        id="endpoint-events"
        types={types}
        value={events}
        onChange={setEvents}
        error={error?.errors.events?.[0]}
      />
      {error && !Object.keys(error.errors).length && <Alert>{error.message}</Alert>}
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? 'Adding…' : 'Add endpoint'}
        </Button>
      </div>
    </form>
  );
}

export function WebhooksList() {
  const list = useQuery({
    queryKey: ['webhooks', 'list'],
    queryFn: () => portal.webhooks.list.query(),
    refetchInterval: REFRESH_MS,
  });
  // One new secret at a time, in its endpoint's entry; page state, so leaving the page forgets it.
  const [secret, setSecret] = useState<Shown | null>(null);
  // An endpoint deleted on its own page: said here, with focus, where its entry was.
  const deleted = useSearchParams().get('deleted');
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (deleted) notice.current?.focus();
  }, [deleted]);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Webhooks</h1>
      {deleted && (
        <div ref={notice} tabIndex={-1} className="focus:outline-none">
          <Alert tone="success">
            <p className="[overflow-wrap:anywhere]">Deleted the endpoint {deleted}.</p>
          </Alert>
        </div>
      )}
      <p className="max-w-3xl text-sm text-slate-600">
        Each change is announced to your endpoints as <code>{'{id, type, occurred_at, data: {entity, id}}'}</code>,
        signed per{' '}
        <a className="text-indigo-700 underline" href="https://www.standardwebhooks.com">
          Standard Webhooks
        </a>{' '}
        (headers <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>). Failed
        deliveries are retried for about a day.{' '}
        <Link className="text-indigo-700 underline" href="/developers/webhooks/events">
          Event types and example payloads
        </Link>
        .
      </p>
      {list.isPending && <Loading what="endpoints" />}
      {list.isError && <LoadFailed message={portalError(list.error).message} retry={() => void list.refetch()} />}
      {list.data && (
        <>
          <section aria-labelledby="endpoints-heading" className="flex flex-col gap-3">
            <h2 id="endpoints-heading" className="text-lg font-semibold">
              Endpoints
            </h2>
            {list.data.data.length === 0 ? (
              <Empty>No endpoints yet. Add one below to receive events.</Empty>
            ) : (
              <ul className="flex flex-col gap-3">
                {list.data.data.map((e) => (
                  <li key={e.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
                    <div className="flex flex-wrap items-start justify-between gap-2">
                      <h3 className="min-w-0 font-mono text-sm font-semibold [overflow-wrap:anywhere]">
                        <Link href={`/developers/webhooks/${e.id}`} className="text-indigo-700 underline">
                          {e.url}
                        </Link>
                      </h3>
                      {e.enabled ? <Badge tone="green">Enabled</Badge> : <Badge tone="red">Disabled</Badge>}
                    </div>
                    {e.description && (
                      <p className="mt-1 text-sm text-slate-700 [overflow-wrap:anywhere]">{e.description}</p>
                    )}
                    <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
                      <dt className="text-slate-500">Receives</dt>
                      <dd>
                        {e.events === 'all'
                          ? 'All event types'
                          : `${e.events.length} event type${e.events.length === 1 ? '' : 's'}`}
                      </dd>
                      <dt className="text-slate-500">Last delivery</dt>
                      <dd>
                        <LastDelivery last={e.last_attempt} />
                      </dd>
                      <dt className="text-slate-500">Last 30 days</dt>
                      <dd>
                        {e.delivered} delivered, {e.failed} failed
                        {e.pending ? `, ${e.pending} waiting or to be sent` : ''}
                      </dd>
                      <dt className="text-slate-500">Added</dt>
                      <dd>
                        <Time iso={e.created_at} />
                      </dd>
                    </dl>
                    {secret?.id === e.id && (
                      <div className="mt-3">
                        <Alert tone="success">
                          <p className="mb-2">
                            Endpoint added. Your receiver verifies each message with this secret; it is also on the
                            endpoint’s page.
                          </p>
                          <div className="flex flex-wrap items-end gap-2">
                            <div className="min-w-0 flex-1 basis-64">
                              <CopyField
                                id={`signing-secret-${e.id}`}
                                label={`Signing secret for ${e.url}`}
                                value={secret.value}
                              />
                            </div>
                            <Button
                              tone="secondary"
                              onClick={() => setSecret(null)}
                              aria-label={`Hide the signing secret for ${e.url}`}
                            >
                              Hide
                            </Button>
                          </div>
                        </Alert>
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <Card title="Add an endpoint">
            <AddEndpoint
              types={list.data.event_types}
              targets={list.data.targets}
              onAdded={(id, value) => {
                setSecret({ id, value });
                // The new entry's secret field, once the list has it: where the eye and focus go next.
                setTimeout(() => document.getElementById(`signing-secret-${id}`)?.focus(), 300);
              }}
            />
          </Card>
        </>
      )}
    </div>
  );
}
