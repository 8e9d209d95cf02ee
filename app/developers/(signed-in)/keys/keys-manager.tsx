'use client';
/**
 * API keys: list, create (secret shown once), rotate (new secret shown once, the old one valid 24 h;
 * not again until then, so no end time shown here moves earlier), revoke.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert, Badge, Button, InlineError, Card, Empty, Field, LoadFailed, Loading, Select, Table, TextInput, when } from '../../_components/ui';
import { useFormAction } from '../../_lib/form';
import { portal, portalError } from '../../_lib/trpc';

type Key = Awaited<ReturnType<typeof portal.keys.list.query>>['data'][number];

const ACCESS = { read_write: 'Read & write', read_only: 'Read only' } as const;
/** Ties every Rotate button to the rule it follows. */
const ROTATION_RULES = 'rotation-rules';

function Status({ k }: { k: Key }) {
  if (k.status === 'revoked') return <Badge tone="red">Revoked</Badge>;
  if (k.status === 'expired') return <Badge tone="slate">Expired</Badge>;
  if (k.status === 'rotating') return <Badge tone="amber">Rotating until {when(k.previous_valid_until)}</Badge>;
  return <Badge tone="green">Active</Badge>;
}

/** A secret shown once, with a copy button and the warning that it will not be shown again. */
function Secret({ title, secret, note, onDone }: { title: string; secret: string; note?: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <Alert tone="success">
      <p className="font-semibold">{title}</p>
      <p className="mt-1">Copy it now: it will not be shown again. Keep it on your server, never in a browser or app.</p>
      {note && <p className="mt-1">{note}</p>}
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <label htmlFor="secret" className="sr-only">
          The new secret
        </label>
        <input id="secret" readOnly value={secret} className="min-w-0 flex-1 rounded border border-emerald-400 bg-white px-2 py-1 font-mono text-xs" onFocus={(e) => e.target.select()} />
        <Button
          tone="secondary"
          onClick={async () => {
            await navigator.clipboard?.writeText(secret).catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button tone="secondary" onClick={onDone}>
          Done
        </Button>
      </div>
    </Alert>
  );
}

function CreateKey({ onCreated }: { onCreated: (secret: string) => void }) {
  const [name, setName] = useState('');
  const [access, setAccess] = useState<'read_write' | 'read_only'>('read_write');
  const [expires, setExpires] = useState<'never' | '90d' | '1y'>('never');
  const queries = useQueryClient();
  const { submit, pending, error } = useFormAction(
    () => portal.keys.create.mutate({ name, access, expires }),
    (key) => {
      setName('');
      onCreated(key.secret);
      void queries.invalidateQueries({ queryKey: ['keys'] });
    },
  );
  return (
    <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end">
      <Field id="key-name" label="Integration name" error={error?.errors.name?.[0]}>
        <TextInput id="key-name" value={name} maxLength={255} onChange={(e) => setName(e.target.value)} placeholder="e.g. Booking website" error={error?.errors.name?.[0]} />
      </Field>
      <Field id="key-access" label="Access">
        <Select id="key-access" value={access} onChange={(e) => setAccess(e.target.value as typeof access)}>
          <option value="read_write">{ACCESS.read_write}</option>
          <option value="read_only">{ACCESS.read_only}</option>
        </Select>
      </Field>
      <Field id="key-expires" label="Expires">
        <Select id="key-expires" value={expires} onChange={(e) => setExpires(e.target.value as typeof expires)}>
          <option value="never">Never</option>
          <option value="90d">In 90 days</option>
          <option value="1y">In 1 year</option>
        </Select>
      </Field>
      <Button type="submit" disabled={pending}>
        {pending ? 'Creating…' : 'Create key'}
      </Button>
      {error && !Object.keys(error.errors).length && (
        <div className="sm:col-span-4">
          <Alert>{error.message}</Alert>
        </div>
      )}
    </form>
  );
}

function KeyRow({ k, onRotated }: { k: Key; onRotated: (secret: string, until: string | undefined) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const queries = useQueryClient();
  const refresh = () => queries.invalidateQueries({ queryKey: ['keys'] });
  const rotate = useMutation({
    mutationFn: () => portal.keys.rotate.mutate({ id: k.id }),
    onSuccess: (r) => {
      onRotated(r.secret, r.previous_valid_until);
      void refresh();
    },
    onError: (err) => setError(portalError(err).message),
  });
  const revoke = useMutation({
    mutationFn: () => portal.keys.revoke.mutate({ id: k.id }),
    onSuccess: () => {
      setConfirming(false);
      void refresh();
    },
    onError: (err) => setError(portalError(err).message),
  });
  const live = k.status === 'active' || k.status === 'rotating';
  // The server refuses this too (409): rotating now would end the previous secret's grace early.
  const rotating = k.status === 'rotating';
  const why = `rotate-${k.id}-why`;
  return (
    <tr className="align-top">
      <td className="px-2 py-3 font-medium">{k.name}</td>
      <td className="px-2 py-3 font-mono text-xs">{k.start}…</td>
      <td className="px-2 py-3">{ACCESS[k.access]}</td>
      <td className="px-2 py-3">
        {when(k.created_at)}
        {k.created_by && <span className="block text-xs text-slate-500">by {k.created_by}</span>}
      </td>
      <td className="px-2 py-3">{k.last_used_at ? when(k.last_used_at) : 'Never'}</td>
      <td className="px-2 py-3">{k.expires_at ? when(k.expires_at) : 'Never'}</td>
      <td className="px-2 py-3">
        <Status k={k} />
      </td>
      <td className="px-2 py-3">
        {live && !confirming && (
          <div className="flex flex-wrap gap-2">
            <Button
              tone="secondary"
              onClick={() => rotate.mutate()}
              disabled={rotate.isPending || rotating}
              aria-label={`Rotate ${k.name}`}
              aria-describedby={rotating ? why : ROTATION_RULES}
            >
              Rotate
            </Button>
            <Button tone="secondary" onClick={() => setConfirming(true)} aria-label={`Revoke ${k.name}`}>
              Revoke
            </Button>
          </div>
        )}
        {live && !confirming && rotating && (
          <p id={why} className="mt-1 max-w-56 text-xs text-slate-600">
            Can be rotated again after {when(k.previous_valid_until)}, when the previous secret stops working. Revoke stops both secrets now.
          </p>
        )}
        {confirming && (
          <div role="group" aria-label={`Confirm revoking ${k.name}`} className="flex flex-col gap-2">
            <p className="text-xs">Revoke “{k.name}”? It stops working at once, and this cannot be undone.</p>
            <div className="flex gap-2">
              <Button tone="danger" onClick={() => revoke.mutate()} disabled={revoke.isPending} autoFocus>
                Yes, revoke
              </Button>
              <Button tone="secondary" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
            </div>
          </div>
        )}
        <InlineError message={error} />
      </td>
    </tr>
  );
}

export function KeysManager() {
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => portal.keys.list.query() });
  const [shown, setShown] = useState<{ title: string; secret: string; note?: string } | null>(null);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">API keys</h1>
      <p className="max-w-3xl text-sm text-slate-600">
        Each key is one integration: its requests are logged and rate-limited as that integration. Only a hash is stored, so a secret is shown once. Send it as{' '}
        <code className="rounded bg-slate-200 px-1">Authorization: Bearer &lt;API_KEY&gt;</code>.
      </p>
      <p id={ROTATION_RULES} className="max-w-3xl text-sm text-slate-600">
        Rotate gives a key a new secret and keeps the current one working for 24 hours; the key can be rotated again once those 24 hours are over. Revoke stops every secret of a key at once.
      </p>
      {shown && <Secret {...shown} onDone={() => setShown(null)} />}
      <Card title="Create a key">
        {keys.data && !keys.data.can_create ? (
          <Alert tone="warning">This account is not yet native to the current API generation, so it cannot create keys for this API. Keys of the older API do not work here.</Alert>
        ) : (
          <CreateKey onCreated={(secret) => setShown({ title: 'Your new API key', secret })} />
        )}
      </Card>
      <Card title="Keys">
        {keys.isPending && <Loading what="keys" />}
        {keys.isError && <LoadFailed message={portalError(keys.error).message} retry={() => void keys.refetch()} />}
        {keys.data && keys.data.data.length === 0 && <Empty>No API keys yet. Create one above to start integrating.</Empty>}
        {keys.data && keys.data.data.length > 0 && (
          <Table caption="API keys of this account" head={['Integration', 'Key', 'Access', 'Created', 'Last used', 'Expires', 'Status', 'Actions']}>
            {keys.data.data.map((k) => (
              <KeyRow key={k.id} k={k} onRotated={(secret, until) => setShown({ title: `New secret for ${k.name}`, secret, note: `The previous secret keeps working until ${when(until ?? null)}; the key can be rotated again after then.` })} />
            ))}
          </Table>
        )}
      </Card>
    </div>
  );
}
