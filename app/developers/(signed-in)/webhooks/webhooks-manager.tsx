'use client';
/** Webhook endpoints: add, reveal and rotate the secret, test, enable/disable, delete; messages and their attempts, replay, recover. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert, Badge, Button, Card, Empty, Field, InlineError, LoadFailed, Loading, Table, TextInput, when } from '../../_components/ui';
import { useFormAction } from '../../_lib/form';
import { portal, portalError } from '../../_lib/trpc';

type List = Awaited<ReturnType<typeof portal.webhooks.list.query>>;
type Endpoint = List['data'][number];
type EventTypeInfo = List['event_types'][number];

function useRefresh() {
  const queries = useQueryClient();
  return () => queries.invalidateQueries({ queryKey: ['webhooks'] });
}

function AddEndpoint({ types, onSecret }: { types: readonly EventTypeInfo[]; onSecret: (s: string) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [all, setAll] = useState(true);
  const [chosen, setChosen] = useState<string[]>([]);
  const refresh = useRefresh();
  const { submit, pending, error } = useFormAction(
    () => portal.webhooks.create.mutate({ url, description: description || null, events: all ? 'all' : chosen }),
    (r) => {
      onSecret(r.secret);
      setUrl('');
      setDescription('');
      void refresh();
    },
  );
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="endpoint-url" label="Endpoint URL" hint="https only; it must answer 2xx within 15 seconds" error={error?.errors.url?.[0]}>
          <TextInput id="endpoint-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/webhooks/clinic" error={error?.errors.url?.[0]} />
        </Field>
        <Field id="endpoint-description" label="Description (optional)">
          <TextInput id="endpoint-description" value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Event types</legend>
        <label className="mt-1 flex items-center gap-2 text-sm">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> All event types
        </label>
        {!all && (
          <>
            <p className="mt-1 text-xs text-slate-600">Types marked “never fires yet” are in the specification, but no change made today announces them (their resources are read-only through the API, for one).</p>
            <div className="mt-2 grid max-h-56 gap-1 overflow-y-auto rounded border border-slate-200 p-2 sm:grid-cols-2 lg:grid-cols-3">
              {types.map(({ type: t, fires, reason }) => (
                <label key={t} className="flex items-center gap-2 font-mono text-xs" title={reason ?? undefined}>
                  <input type="checkbox" checked={chosen.includes(t)} onChange={() => setChosen((c) => (c.includes(t) ? c.filter((x) => x !== t) : [...c, t]))} />
                  <span className={fires ? undefined : 'text-slate-500'}>{t}</span>
                  {!fires && <span className="font-sans text-slate-500">(never fires yet)</span>}
                </label>
              ))}
            </div>
          </>
        )}
        {error?.errors.events && (
          <p role="alert" className="text-sm text-red-700">
            {error.errors.events[0]}
          </p>
        )}
      </fieldset>
      {error && !Object.keys(error.errors).length && <Alert>{error.message}</Alert>}
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? 'Adding…' : 'Add endpoint'}
        </Button>
      </div>
    </form>
  );
}

function Messages({ endpoint }: { endpoint: Endpoint }) {
  const messages = useQuery({ queryKey: ['webhooks', 'messages', endpoint.id], queryFn: () => portal.webhooks.messages.query({ id: endpoint.id }), refetchInterval: 3000 });
  const [error, setError] = useState<string | null>(null);
  const queries = useQueryClient();
  const replay = useMutation({
    mutationFn: (eventId: string) => portal.webhooks.replay.mutate({ event_id: eventId, endpoint_id: endpoint.id }),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['webhooks'] }),
    onError: (err) => setError(portalError(err).message),
  });
  if (messages.isPending) return <Loading what="messages" />;
  if (messages.isError) return <LoadFailed message={portalError(messages.error).message} retry={() => void messages.refetch()} />;
  if (!messages.data.length) return <Empty>No messages yet. Send a test event, or make a change over the API.</Empty>;
  return (
    <>
      <InlineError message={error} />
      <Table caption={`Messages to ${endpoint.url}`} head={['Event', 'Status', 'Attempts', 'Next attempt', 'Actions']}>
        {messages.data.map((m) => (
          <tr key={m.id} className="align-top">
            <td className="px-2 py-2">
              <span className="font-mono text-xs">{m.event_type}</span>
              <span className="block font-mono text-xs text-slate-500">{m.event_id}</span>
            </td>
            <td className="px-2 py-2">
              <Badge tone={m.status === 'delivered' ? 'green' : m.status === 'failed' ? 'red' : m.status === 'waiting' ? 'slate' : 'amber'}>{m.status}</Badge>
              {m.status === 'waiting' && <span className="block text-xs text-slate-600">sent when the endpoint is enabled</span>}
            </td>
            <td className="px-2 py-2">
              <ol className="flex flex-col gap-1 text-xs">
                {m.attempts.map((a) => (
                  <li key={a.id}>
                    {when(a.created_at)}: {a.status_code ?? a.error} in {a.duration_ms} ms ({a.trigger})
                  </li>
                ))}
              </ol>
            </td>
            <td className="px-2 py-2 text-xs">{m.next_attempt_at ? when(m.next_attempt_at) : '—'}</td>
            <td className="px-2 py-2">
              <Button tone="secondary" onClick={() => replay.mutate(m.event_id)} disabled={replay.isPending} aria-label={`Replay ${m.event_type} ${m.event_id}`}>
                Replay
              </Button>
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}

function EndpointCard({ endpoint, onSecret }: { endpoint: Endpoint; onSecret: (s: string, note?: string) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [since, setSince] = useState('');
  const refresh = useRefresh();
  const onError = (err: unknown) => setError(portalError(err).message);
  const done = () => {
    setError(null);
    void refresh();
  };
  const reveal = useMutation({ mutationFn: () => portal.webhooks.secret.query({ id: endpoint.id }), onSuccess: (r) => onSecret(r.secret), onError });
  const rotate = useMutation({ mutationFn: () => portal.webhooks.rotate.mutate({ id: endpoint.id }), onSuccess: (r) => onSecret(r.secret, `The previous secret also signs messages until ${when(r.previous_valid_until)}.`), onError });
  const test = useMutation({ mutationFn: () => portal.webhooks.test.mutate({ id: endpoint.id }), onSuccess: done, onError });
  const toggle = useMutation({ mutationFn: () => portal.webhooks.setEnabled.mutate({ id: endpoint.id, enabled: !endpoint.enabled }), onSuccess: done, onError });
  const remove = useMutation({ mutationFn: () => portal.webhooks.delete.mutate({ id: endpoint.id }), onSuccess: done, onError });
  const recover = useMutation({ mutationFn: () => portal.webhooks.recover.mutate({ endpoint_id: endpoint.id, since: new Date(since).toISOString() }), onSuccess: done, onError });
  const rate = endpoint.success_rate === null ? 'no deliveries yet' : `${Math.round(endpoint.success_rate * 100)}% delivered (30 days)`;
  return (
    <Card
      title={endpoint.url}
      actions={
        <div className="flex flex-wrap items-center gap-2">
          {endpoint.enabled ? <Badge tone="green">Enabled</Badge> : <Badge tone="red">Disabled</Badge>}
          <span className="text-xs text-slate-600">{rate}</span>
        </div>
      }
    >
      {!endpoint.enabled && (
        <div className="mb-4">
          <Alert tone="warning">
            <p className="font-semibold">This endpoint is disabled{endpoint.disabled_reason ? `: ${endpoint.disabled_reason}` : ''}.</p>
            <p>New events wait while it is disabled (listed as waiting below); enabling it sends them, oldest first. Messages that had failed can be queued again too:</p>
            <div className="mt-2 flex flex-wrap items-end gap-2">
              <Field id={`since-${endpoint.id}`} label="Failed since">
                <TextInput id={`since-${endpoint.id}`} type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} />
              </Field>
              <Button tone="secondary" onClick={() => recover.mutate()} disabled={!since || recover.isPending}>
                Recover failed messages
              </Button>
            </div>
          </Alert>
        </div>
      )}
      <p className="text-sm text-slate-600">
        {endpoint.description && <span>{endpoint.description} · </span>}
        Events: {endpoint.events === 'all' ? 'all' : endpoint.events.join(', ')}
        {endpoint.rotating_until && <span> · rotating until {when(endpoint.rotating_until)}</span>}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button tone="secondary" onClick={() => reveal.mutate()}>
          Show signing secret
        </Button>
        <Button tone="secondary" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
          Rotate secret
        </Button>
        <Button tone="secondary" onClick={() => test.mutate()} disabled={test.isPending || !endpoint.enabled}>
          Send test event
        </Button>
        <Button tone="secondary" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </Button>
        <Button tone="danger" onClick={() => window.confirm(`Delete the endpoint ${endpoint.url}? Its messages go with it.`) && remove.mutate()}>
          Delete
        </Button>
      </div>
      <InlineError message={error} />
      <h3 className="mb-2 mt-4 font-semibold">Messages</h3>
      <Messages endpoint={endpoint} />
    </Card>
  );
}

export function WebhooksManager() {
  const list = useQuery({ queryKey: ['webhooks'], queryFn: () => portal.webhooks.list.query() });
  const [secret, setSecret] = useState<{ value: string; note?: string } | null>(null);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Webhooks</h1>
      <p className="max-w-3xl text-sm text-slate-600">
        Each change is announced to your endpoints as <code>{'{id, type, occurred_at, data: {entity, id}}'}</code>, signed per{' '}
        <a className="text-indigo-700 underline" href="https://www.standardwebhooks.com">
          Standard Webhooks
        </a>{' '}
        (headers <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>). Failed deliveries are retried for about a day.
      </p>
      {secret && (
        <Alert tone="success">
          <p className="font-semibold">Signing secret</p>
          {secret.note && <p>{secret.note}</p>}
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <label htmlFor="signing-secret" className="sr-only">
              Signing secret
            </label>
            <input id="signing-secret" readOnly value={secret.value} className="min-w-0 flex-1 rounded border border-emerald-400 bg-white px-2 py-1 font-mono text-xs" onFocus={(e) => e.target.select()} />
            <Button tone="secondary" onClick={() => void navigator.clipboard?.writeText(secret.value).catch(() => undefined)}>
              Copy
            </Button>
            <Button tone="secondary" onClick={() => setSecret(null)}>
              Hide
            </Button>
          </div>
        </Alert>
      )}
      {list.isPending && <Loading what="endpoints" />}
      {list.isError && <LoadFailed message={portalError(list.error).message} retry={() => void list.refetch()} />}
      {list.data && (
        <>
          <Card title="Add an endpoint">
            <AddEndpoint types={list.data.event_types} onSecret={(value) => setSecret({ value })} />
          </Card>
          {list.data.data.length === 0 && <Empty>No endpoints yet. Add one above to receive events.</Empty>}
          {list.data.data.map((e) => (
            <EndpointCard key={e.id} endpoint={e} onSecret={(value, note) => setSecret({ value, note })} />
          ))}
        </>
      )}
    </div>
  );
}
