'use client';
/** Webhook endpoints: add, reveal and rotate the secret (shown in its endpoint's card), test, enable/disable, delete (each that stops or changes delivery asks first); messages and their attempts, replay, recover. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../_components/confirm-dialog';
import { CopyField } from '../../_components/copy-button';
import { Alert, Badge, Button, Card, Cell, Empty, Field, InlineError, LoadFailed, Loading, Row, Table, TextInput, when } from '../../_components/ui';
import { useFormAction } from '../../_lib/form';
import { portal, portalError } from '../../_lib/trpc';

type List = Awaited<ReturnType<typeof portal.webhooks.list.query>>;
type Endpoint = List['data'][number];
type EventTypeInfo = List['event_types'][number];
type Shown = { id: number; value: string; note?: string };

function useRefresh() {
  const queries = useQueryClient();
  return () => queries.invalidateQueries({ queryKey: ['webhooks'] });
}

function AddEndpoint({ types, onSecret }: { types: readonly EventTypeInfo[]; onSecret: (id: number, secret: string) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [all, setAll] = useState(true);
  const [chosen, setChosen] = useState<string[]>([]);
  const refresh = useRefresh();
  const { submit, pending, error } = useFormAction(
    () => portal.webhooks.create.mutate({ url, description: description || null, events: all ? 'all' : chosen }),
    (r) => {
      onSecret(r.endpoint.id, r.secret);
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
        <label className="mt-1 flex min-h-9 items-center gap-2 text-sm">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} className="size-5" /> All event types
        </label>
        {!all && (
          <>
            <p className="mt-1 text-xs text-slate-600">Types marked “never fires yet” are in the specification, but no change made today announces them (their resources are read-only through the API, for one).</p>
            {/* Not a scrolling box: every type stays reachable by Tab and by a finger, and each box is a 24 px target. */}
            <div className="mt-2 grid gap-1 rounded border border-slate-200 p-2 sm:grid-cols-2 lg:grid-cols-3">
              {types.map(({ type: t, fires, reason }) => (
                <label key={t} className="flex min-h-9 min-w-0 items-center gap-2 font-mono text-xs [overflow-wrap:anywhere]" title={reason ?? undefined}>
                  <input type="checkbox" checked={chosen.includes(t)} onChange={() => setChosen((c) => (c.includes(t) ? c.filter((x) => x !== t) : [...c, t]))} className="size-5 shrink-0" />
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
      <Table stacked caption={`Messages to ${endpoint.url}`} head={['Event', 'Status', 'Attempts', 'Next attempt', 'Actions']}>
        {messages.data.map((m) => (
          <Row key={m.id}>
            <Cell label="Event">
              <span className="font-mono text-xs">{m.event_type}</span>
              <span className="block font-mono text-xs text-slate-500">{m.event_id}</span>
            </Cell>
            <Cell label="Status">
              <Badge tone={m.status === 'delivered' ? 'green' : m.status === 'failed' ? 'red' : m.status === 'waiting' ? 'slate' : 'amber'}>{m.status}</Badge>
              {m.status === 'waiting' && <span className="block text-xs text-slate-600">sent when the endpoint is enabled</span>}
            </Cell>
            <Cell label="Attempts">
              <ol className="flex flex-col gap-1 text-xs">
                {m.attempts.map((a) => (
                  <li key={a.id}>
                    {when(a.created_at)}: {a.status_code ?? a.error} in {a.duration_ms} ms ({a.trigger})
                  </li>
                ))}
              </ol>
            </Cell>
            <Cell label="Next attempt" className="text-xs">
              {m.next_attempt_at ? when(m.next_attempt_at) : '—'}
            </Cell>
            <Cell label="Actions">
              <Button tone="secondary" onClick={() => replay.mutate(m.event_id)} disabled={replay.isPending} aria-label={`Replay ${m.event_type} ${m.event_id}`}>
                Replay
              </Button>
            </Cell>
          </Row>
        ))}
      </Table>
    </>
  );
}

function EndpointCard({ endpoint, secret, onSecret }: { endpoint: Endpoint; secret: Shown | null; onSecret: (s: Shown | null) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [since, setSince] = useState('');
  const refresh = useRefresh();
  const onError = (err: unknown) => setError(portalError(err).message);
  const done = () => {
    setError(null);
    void refresh();
  };
  const reveal = useMutation({ mutationFn: () => portal.webhooks.secret.query({ id: endpoint.id }), onSuccess: (r) => onSecret({ id: endpoint.id, value: r.secret }), onError });
  const rotate = async () => {
    const r = await portal.webhooks.rotate.mutate({ id: endpoint.id });
    onSecret({ id: endpoint.id, value: r.secret, note: `The previous secret also signs messages until ${when(r.previous_valid_until)}: update your receiver before then.` });
    await refresh();
  };
  const disable = async () => {
    await portal.webhooks.setEnabled.mutate({ id: endpoint.id, enabled: false });
    await refresh();
  };
  const remove = async () => {
    await portal.webhooks.delete.mutate({ id: endpoint.id });
    if (secret) onSecret(null);
    // Not awaited: the dialog closes (and moves focus to the form) before this card leaves the page with it.
    void refresh();
  };
  const test = useMutation({ mutationFn: () => portal.webhooks.test.mutate({ id: endpoint.id }), onSuccess: done, onError });
  const enable = useMutation({ mutationFn: () => portal.webhooks.setEnabled.mutate({ id: endpoint.id, enabled: true }), onSuccess: done, onError });
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
      {secret && (
        <div className="mt-3">
          <Alert tone="success">
            {secret.note && <p className="mb-2">{secret.note}</p>}
            <div className="flex flex-wrap items-end gap-2">
              <div className="min-w-0 flex-1 basis-64">
                <CopyField id={`signing-secret-${endpoint.id}`} label={`Signing secret for ${endpoint.url}`} value={secret.value} />
              </div>
              <Button tone="secondary" onClick={() => onSecret(null)} aria-label={`Hide the signing secret for ${endpoint.url}`}>
                Hide
              </Button>
            </div>
          </Alert>
        </div>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button tone="secondary" onClick={() => reveal.mutate()} aria-label={`Show the signing secret for ${endpoint.url}`}>
          Show signing secret
        </Button>
        <ConfirmDialog
          trigger={
            <Button tone="secondary" aria-label={`Rotate the signing secret for ${endpoint.url}`}>
              Rotate secret
            </Button>
          }
          focusAfter={() => document.getElementById(`signing-secret-${endpoint.id}`)}
          title="Rotate the signing secret?"
          confirm="Rotate secret"
          onConfirm={rotate}
        >
          <p className="[overflow-wrap:anywhere]">
            Messages to {endpoint.url} are signed with a new secret from now on. The current secret also signs them for 24 hours, so your receiver keeps accepting them while you update it.
          </p>
        </ConfirmDialog>
        <Button tone="secondary" onClick={() => test.mutate()} disabled={test.isPending || !endpoint.enabled}>
          Send test event
        </Button>
        {endpoint.enabled ? (
          <ConfirmDialog
            trigger={
              <Button tone="secondary" aria-label={`Disable ${endpoint.url}`}>
                Disable
              </Button>
            }
            focusAfter={() => document.getElementById(`enable-${endpoint.id}`)}
            title="Disable this endpoint?"
            confirm="Disable endpoint"
            onConfirm={disable}
          >
            <p className="[overflow-wrap:anywhere]">Nothing is sent to {endpoint.url} until you enable it again. New events wait meanwhile and are sent, oldest first, when you do.</p>
          </ConfirmDialog>
        ) : (
          <Button id={`enable-${endpoint.id}`} tone="secondary" onClick={() => enable.mutate()} disabled={enable.isPending} aria-label={`Enable ${endpoint.url}`}>
            Enable
          </Button>
        )}
        <ConfirmDialog
          trigger={
            <Button tone="danger" aria-label={`Delete ${endpoint.url}`}>
              Delete
            </Button>
          }
          focusAfter={() => document.getElementById('endpoint-url')}
          title="Delete this endpoint?"
          confirm="Delete endpoint"
          onConfirm={remove}
        >
          <p className="[overflow-wrap:anywhere]">Nothing more is sent to {endpoint.url}, and its messages and their attempts are deleted with it. This cannot be undone.</p>
        </ConfirmDialog>
      </div>
      <InlineError message={error} />
      <h3 className="mb-2 mt-4 font-semibold">Messages</h3>
      <Messages endpoint={endpoint} />
    </Card>
  );
}

export function WebhooksManager() {
  const list = useQuery({ queryKey: ['webhooks'], queryFn: () => portal.webhooks.list.query() });
  // One secret at a time, shown in its endpoint's card; page state, so leaving the page forgets it.
  const [secret, setSecret] = useState<Shown | null>(null);
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
      {list.isPending && <Loading what="endpoints" />}
      {list.isError && <LoadFailed message={portalError(list.error).message} retry={() => void list.refetch()} />}
      {list.data && (
        <>
          <Card title="Add an endpoint">
            <AddEndpoint types={list.data.event_types} onSecret={(id, value) => setSecret({ id, value, note: 'Messages to this endpoint are signed with this secret: give it to your receiver to verify them.' })} />
          </Card>
          {list.data.data.length === 0 && <Empty>No endpoints yet. Add one above to receive events.</Empty>}
          {list.data.data.map((e) => (
            <EndpointCard key={e.id} endpoint={e} secret={secret?.id === e.id ? secret : null} onSecret={setSecret} />
          ))}
        </>
      )}
    </div>
  );
}
