'use client';
/**
 * API keys: list, create (secret shown once, under its key), rotate after a confirmation that lets the
 * person choose how long the old secret keeps working (now, 1 h, 24 h; not again during that time, so no
 * end time shown here moves earlier), revoke after a confirmation.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../_components/confirm-dialog';
import { CopyField } from '../../_components/copy-button';
import {
  Alert,
  Badge,
  Button,
  Card,
  Cell,
  Empty,
  Field,
  LoadFailed,
  Loading,
  Row,
  Select,
  Table,
  TextInput,
} from '../../_components/ui';
import { Time, useFullTime } from '../../_components/time';
import { useFormAction } from '../../_lib/form';
import { portal, portalError } from '../../_lib/trpc';
import type { KeyPermissions } from '../../../../server/auth/key-groups';
import { AccessSummary, NO_PERMISSIONS, PermissionsChooser } from './key-permissions';
import { GraceChoice, graceLength, type Grace } from '../../_components/grace-choice';

type Key = Awaited<ReturnType<typeof portal.keys.list.query>>['data'][number];

/** Ties every Rotate button to the rule it follows. */
const ROTATION_RULES = 'rotation-rules';

function Status({ k }: { k: Key }) {
  const at = useFullTime();
  if (k.status === 'revoked') return <Badge tone="red">Revoked</Badge>;
  if (k.status === 'expired') return <Badge tone="slate">Expired</Badge>;
  if (k.status === 'rotating') return <Badge tone="amber">Rotating until {at(k.previous_valid_until)}</Badge>;
  return <Badge tone="green">Active</Badge>;
}

/** A secret shown once, under the key it belongs to, with its own Copy and the warning that it will not be shown again. */
function Secret({ k, shown, onDone }: { k: Key; shown: Shown; onDone: () => void }) {
  // The secret appears far below the form that made it: bring it into view and put focus on it.
  useEffect(() => {
    const field = document.getElementById(`secret-${k.id}`);
    field?.scrollIntoView({ block: 'center' });
    field?.focus();
  }, [k.id, shown.secret]);
  return (
    <tr className="max-sm:block">
      <td colSpan={8} className="px-2 pb-3 max-sm:block">
        <Alert tone="success">
          <p className="font-semibold">{shown.title}</p>
          <p className="mt-1">
            Copy it now: it will not be shown again. Keep it on your server, never in a browser or app.
          </p>
          {shown.note && <p className="mt-1">{shown.note}</p>}
          <div className="mt-3 flex flex-wrap items-end gap-2">
            <div className="min-w-0 flex-1 basis-64">
              <CopyField id={`secret-${k.id}`} label={`New secret for ${k.name}`} value={shown.secret} />
            </div>
            <Button tone="secondary" onClick={onDone} aria-label={`Done with the secret for ${k.name}`}>
              Done
            </Button>
          </div>
        </Alert>
      </td>
    </tr>
  );
}

type Access = 'read_write' | 'read_only' | 'restricted';
const ACCESS_CHOICES: Record<Access, string> = {
  read_write: 'Read & write',
  read_only: 'Read only',
  restricted: 'Restricted (choose per group)',
};

/** The first message of a field's errors, or of any of its items' (`allowed_ips.2`). */
const fieldError = (errors: Record<string, string[]> | undefined, field: string) =>
  Object.entries(errors ?? {}).find(([k]) => k === field || k.startsWith(`${field}.`))?.[1][0];

function CreateKey({ onCreated }: { onCreated: (id: number, secret: string) => void }) {
  const [name, setName] = useState('');
  const [access, setAccess] = useState<Access>('read_write');
  const [permissions, setPermissions] = useState<KeyPermissions>(NO_PERMISSIONS);
  const [networks, setNetworks] = useState('');
  const [expires, setExpires] = useState<'never' | '90d' | '1y'>('never');
  const queries = useQueryClient();
  const { submit, pending, error } = useFormAction(
    () =>
      portal.keys.create.mutate({
        name,
        access,
        ...(access === 'restricted' ? { permissions } : {}),
        allowed_ips: networks.split(/[\s,]+/).filter(Boolean),
        expires,
      }),
    (key) => {
      setName('');
      setNetworks('');
      setPermissions(NO_PERMISSIONS);
      onCreated(key.id, key.secret);
      void queries.invalidateQueries({ queryKey: ['keys'] });
    },
  );
  const networksError = fieldError(error?.errors, 'allowed_ips');
  return (
    <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-[2fr_1fr_1fr] sm:items-end">
      <Field id="key-name" label="Integration name" error={error?.errors.name?.[0]}>
        <TextInput
          id="key-name"
          value={name}
          maxLength={255}
          onChange={(e) => setName(e.target.value)}
          placeholder="e.g. Booking website"
          error={error?.errors.name?.[0]}
        />
      </Field>
      <Field id="key-access" label="Access">
        <Select id="key-access" value={access} onChange={(e) => setAccess(e.target.value as Access)}>
          {(Object.keys(ACCESS_CHOICES) as Access[]).map((a) => (
            <option key={a} value={a}>
              {ACCESS_CHOICES[a]}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="key-expires" label="Expires">
        <Select id="key-expires" value={expires} onChange={(e) => setExpires(e.target.value as typeof expires)}>
          <option value="never">Never</option>
          <option value="90d">In 90 days</option>
          <option value="1y">In 1 year</option>
        </Select>
      </Field>
      {access === 'restricted' && (
        <div className="sm:col-span-3">
          <PermissionsChooser
            value={permissions}
            onChange={setPermissions}
            error={fieldError(error?.errors, 'permissions')}
          />
        </div>
      )}
      <div className="sm:col-span-3">
        <Field
          id="key-networks"
          label="Allowed networks (optional)"
          hint="Addresses or CIDR networks, separated by commas or spaces, e.g. 203.0.113.7, 10.0.0.0/8. Empty: any network."
          error={networksError}
        >
          <TextInput
            id="key-networks"
            value={networks}
            onChange={(e) => setNetworks(e.target.value)}
            aria-describedby={networksError ? 'key-networks-error' : 'key-networks-hint'}
            error={networksError}
          />
        </Field>
      </div>
      {error && !Object.keys(error.errors).length && (
        <div className="sm:col-span-3">
          <Alert>{error.message}</Alert>
        </div>
      )}
      {/* Last, after every choice (the groups, the networks): Tab reaches it once the key is described. */}
      <div className="sm:col-span-3">
        <Button type="submit" disabled={pending}>
          {pending ? 'Creating…' : 'Create key'}
        </Button>
      </div>
    </form>
  );
}

type Shown = { id: number; title: string; secret: string; note?: string };
const graceSentence = (k: Key, g: Grace) =>
  g === 'now'
    ? `Anything still using the current secret of ${k.name} is refused from now on.`
    : `The current secret keeps working for ${graceLength(g)}, so you can update ${k.name} before it stops; the key cannot be rotated again until then.`;

function KeyRow({ k, shown, onShown }: { k: Key; shown: Shown | null; onShown: (s: Shown | null) => void }) {
  const at = useFullTime();
  const [grace, setGrace] = useState<Grace>('24h');
  const queries = useQueryClient();
  const refresh = () => queries.invalidateQueries({ queryKey: ['keys'] });
  const live = k.status === 'active' || k.status === 'rotating';
  // The server refuses this too (409): rotating now would end the previous secret's grace early.
  const rotating = k.status === 'rotating';
  const why = `rotate-${k.id}-why`;
  const rotate = async () => {
    const r = await portal.keys.rotate.mutate({ id: k.id, grace });
    onShown({
      id: k.id,
      title: `New secret for ${k.name}`,
      secret: r.secret,
      note:
        grace === 'now'
          ? 'The previous secret has stopped working.'
          : `The previous secret keeps working until ${at(r.previous_valid_until ?? null)}; the key can be rotated again after then.`,
    });
    await refresh();
  };
  const revoke = async () => {
    await portal.keys.revoke.mutate({ id: k.id });
    if (shown) onShown(null);
    await refresh();
  };
  return (
    <>
      <Row>
        <Cell label="Integration" className="font-medium">
          {k.name}
        </Cell>
        <Cell label="Key" className="font-mono text-xs">
          {k.start}…
        </Cell>
        <Cell label="Access">
          <AccessSummary access={k.access} permissions={k.permissions} allowedIps={k.allowed_ips} />
        </Cell>
        <Cell label="Created">
          <Time iso={k.created_at} />
          {k.created_by && <span className="block text-xs text-slate-500">by {k.created_by}</span>}
        </Cell>
        <Cell label="Last used">{k.last_used_at ? <Time iso={k.last_used_at} /> : 'Never'}</Cell>
        <Cell label="Expires">{k.expires_at ? <Time iso={k.expires_at} /> : 'Never'}</Cell>
        <Cell label="Status">
          <Status k={k} />
        </Cell>
        <Cell label="Actions">
          {live && (
            <div className="flex flex-wrap gap-2">
              <ConfirmDialog
                trigger={
                  <Button
                    tone="secondary"
                    disabled={rotating}
                    aria-label={`Rotate ${k.name}`}
                    aria-describedby={rotating ? why : ROTATION_RULES}
                  >
                    Rotate
                  </Button>
                }
                onOpenChange={(open) => open && setGrace('24h')}
                focusAfter={() => document.getElementById(`secret-${k.id}`)}
                title={`Rotate ${k.name}?`}
                extra={
                  <GraceChoice
                    name={`grace-${k.id}`}
                    legend={`How long the current secret of ${k.name} keeps working`}
                    grace={grace}
                    onChange={setGrace}
                  />
                }
                confirm={`Rotate ${k.name}`}
                onConfirm={rotate}
              >
                <p>
                  {k.name} gets a new secret, shown once. {graceSentence(k, grace)}
                </p>
              </ConfirmDialog>
              <ConfirmDialog
                trigger={
                  <Button tone="secondary" aria-label={`Revoke ${k.name}`}>
                    Revoke
                  </Button>
                }
                focusAfter={() => document.getElementById('key-name')}
                title={`Revoke ${k.name}?`}
                confirm={`Revoke ${k.name}`}
                onConfirm={revoke}
              >
                <p>
                  {k.name} stops working at once{rotating ? ', its previous secret too' : ''}: every request it makes is
                  refused. This cannot be undone; a new key would be needed.
                </p>
              </ConfirmDialog>
            </div>
          )}
          {live && rotating && (
            <p id={why} className="mt-1 max-w-56 text-xs text-slate-600">
              Can be rotated again after {at(k.previous_valid_until)}, when the previous secret stops working. Revoke
              stops both secrets now.
            </p>
          )}
          {live && rotating && (
            <p className="mt-1 max-w-56 text-xs text-slate-600">
              Previous secret last used:{' '}
              {k.previous_last_used_at ? <Time iso={k.previous_last_used_at} /> : 'not since the rotation'}
            </p>
          )}
        </Cell>
      </Row>
      {shown && <Secret k={k} shown={shown} onDone={() => onShown(null)} />}
    </>
  );
}

export function KeysManager() {
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => portal.keys.list.query() });
  // One secret at a time, under its key; it lives in this page's state, so leaving the page forgets it.
  const [shown, setShown] = useState<Shown | null>(null);
  // Revoked and expired keys stay on record (the request and activity logs name them), out of the way by default.
  const [showEnded, setShowEnded] = useState(false);
  const all = keys.data?.data ?? [];
  const ended = all.filter((k) => k.status === 'revoked' || k.status === 'expired');
  const listed = showEnded ? all : all.filter((k) => !ended.includes(k));
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">API keys</h1>
      <p className="max-w-3xl text-sm text-slate-600">
        Each key is one integration: its requests are logged and rate-limited as that integration. Only a hash is
        stored, so a secret is shown once. Send it as{' '}
        <code className="rounded bg-slate-200 px-1">Authorization: Bearer &lt;API_KEY&gt;</code>.
      </p>
      <p id={ROTATION_RULES} className="max-w-3xl text-sm text-slate-600">
        Rotate gives a key a new secret and keeps the current one working for 24 hours; the key can be rotated again
        once those 24 hours are over. When you rotate you can choose a shorter time instead: 1 hour, or stop it at once.
        Revoke stops every secret of a key at once.
      </p>
      <Card title="Create a key">
        {keys.data && !keys.data.can_create ? (
          <Alert tone="warning">
            This account is not yet native to the current API generation, so it cannot create keys for this API. Keys of
            the older API do not work here.
          </Alert>
        ) : (
          <CreateKey onCreated={(id, secret) => setShown({ id, title: 'Your new API key', secret })} />
        )}
      </Card>
      <Card title="Keys">
        {keys.isPending && <Loading what="keys" />}
        {keys.isError && <LoadFailed message={portalError(keys.error).message} retry={() => void keys.refetch()} />}
        {keys.data && all.length === 0 && <Empty>No API keys yet. Create one above to start integrating.</Empty>}
        {ended.length > 0 && (
          <label className="mb-3 flex min-h-9 items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-5"
              checked={showEnded}
              onChange={(e) => setShowEnded(e.target.checked)}
            />
            Show revoked and expired keys ({ended.length}); they stay on record because the logs name them
          </label>
        )}
        {keys.data && all.length > 0 && listed.length === 0 && (
          <Empty>No working keys. Create one above; the revoked and expired ones are hidden.</Empty>
        )}
        {listed.length > 0 && (
          <Table
            stacked
            caption="API keys of this account"
            head={['Integration', 'Key', 'Access', 'Created', 'Last used', 'Expires', 'Status', 'Actions']}
          >
            {listed.map((k) => (
              <KeyRow key={k.id} k={k} shown={shown?.id === k.id ? shown : null} onShown={setShown} />
            ))}
          </Table>
        )}
      </Card>
    </div>
  );
}
