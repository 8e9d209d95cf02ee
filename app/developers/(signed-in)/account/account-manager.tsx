'use client';
/**
 * Your account: change your password (the other sessions end), your second factors (authenticator app,
 * passkeys, recovery codes) and your sessions (end one, or all others). Anything that cannot be taken
 * back asks first.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../_components/confirm-dialog';
import { Time } from '../../_components/time';
import { AddPasskey, RecoveryCodes, TotpSetup } from '../../_components/two-factor';
import {
  Alert,
  Badge,
  Button,
  Card,
  Cell,
  Empty,
  InlineError,
  LoadFailed,
  Loading,
  Row,
  Table,
  TextInput,
} from '../../_components/ui';
import { InputField } from '../../_components/input-field';
import { useFormAction } from '../../_lib/form';
import { portal, portalError } from '../../_lib/trpc';

type Overview = Awaited<ReturnType<typeof portal.account.overview.query>>;

function useRefresh() {
  const queries = useQueryClient();
  return () => queries.invalidateQueries({ queryKey: ['account'] });
}

function ChangePassword() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [saved, setSaved] = useState<number | null>(null);
  const refresh = useRefresh();
  const { submit, pending, error } = useFormAction(
    () => portal.account.changePassword.mutate({ current_password: current, new_password: next }),
    (r) => {
      setSaved(r.sessions_ended);
      setCurrent('');
      setNext('');
      void refresh();
    },
  );
  return (
    <Card title="Password">
      <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2 sm:items-end">
        <InputField
          id="current-password"
          label="Current password"
          error={error?.errors.current_password?.[0]}
          value={current}
          onValue={(v) => (setSaved(null), setCurrent(v))}
          type="password"
          autoComplete="current-password"
        />
        <InputField
          id="new-password"
          label="New password (15 characters or more)"
          error={error?.errors.new_password?.[0]}
          value={next}
          onValue={(v) => (setSaved(null), setNext(v))}
          type="password"
          autoComplete="new-password"
        />
        <div>
          <Button type="submit" disabled={pending}>
            {pending ? 'Changing…' : 'Change password'}
          </Button>
        </div>
      </form>
      {error && !Object.keys(error.errors).length && <InlineError message={error.message} />}
      {saved !== null && (
        <p role="status" className="mt-3 text-sm text-emerald-700">
          Password changed. {saved ? `${saved} other session(s) ended.` : 'You had no other sessions.'}
        </p>
      )}
    </Card>
  );
}

function Passkey({ k }: { k: Overview['passkeys'][number] }) {
  const [name, setName] = useState(k.name);
  const refresh = useRefresh();
  const rename = useMutation({
    mutationFn: () => portal.account.passkeyRename.mutate({ id: k.id, name }),
    onSuccess: () => void refresh(),
  });
  return (
    <Row>
      <Cell label="Passkey">
        <form
          className="flex flex-wrap items-center gap-2"
          onSubmit={(e) => (e.preventDefault(), rename.mutate())}
          aria-label={`Rename ${k.name}`}
        >
          <label htmlFor={`passkey-${k.id}`} className="sr-only">
            Name of the passkey {k.name}
          </label>
          <TextInput id={`passkey-${k.id}`} value={name} onChange={(e) => setName(e.target.value)} />
          <Button tone="secondary" type="submit" disabled={rename.isPending || name === k.name}>
            Rename
          </Button>
        </form>
        {rename.isError && <InlineError message={portalError(rename.error).message} />}
      </Cell>
      <Cell label="Added">
        <Time iso={k.created_at} />
      </Cell>
      <Cell label="Last used">{k.last_used_at ? <Time iso={k.last_used_at} /> : 'Never'}</Cell>
      <Cell label="Actions">
        <ConfirmDialog
          trigger={
            <Button tone="secondary" aria-label={`Remove the passkey ${k.name}`}>
              Remove
            </Button>
          }
          title={`Remove the passkey “${k.name}”?`}
          confirm="Remove passkey"
          onConfirm={async () => {
            await portal.account.passkeyRemove.mutate({ id: k.id });
            await refresh();
          }}
        >
          <p>It stops signing you in at once. You can add it again later.</p>
        </ConfirmDialog>
      </Cell>
    </Row>
  );
}

function TwoFactor({ a }: { a: Overview }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  const refresh = useRefresh();
  const shown = (c: string[] | null) => (setCodes(c), void refresh());
  return (
    <Card title="Two-factor sign-in">
      <div className="flex flex-col gap-4">
        {a.two_factor_required && (
          <p className="text-sm text-slate-600">This clinic requires a second step at sign-in for your role.</p>
        )}
        {codes && <RecoveryCodes codes={codes} />}
        <section aria-labelledby="app-title" className="flex flex-col gap-2">
          <h3 id="app-title" className="font-semibold">
            Authenticator app
          </h3>
          {a.totp ? (
            <div className="flex flex-wrap items-center gap-3">
              <Badge tone="green">On</Badge>
              <ConfirmDialog
                trigger={<Button tone="secondary">Remove the app</Button>}
                title="Remove your authenticator app?"
                confirm="Remove the app"
                onConfirm={async () => {
                  await portal.account.totpRemove.mutate();
                  await refresh();
                }}
              >
                <p>Its codes stop signing you in at once.</p>
              </ConfirmDialog>
            </div>
          ) : (
            <TotpSetup onDone={shown} />
          )}
        </section>
        <section aria-labelledby="passkeys-title" className="flex flex-col gap-2">
          <h3 id="passkeys-title" className="font-semibold">
            Passkeys
          </h3>
          {a.passkeys.length === 0 ? (
            <Empty>No passkey yet.</Empty>
          ) : (
            <Table stacked caption="Your passkeys" head={['Passkey', 'Added', 'Last used', 'Actions']}>
              {a.passkeys.map((k) => (
                <Passkey key={k.id} k={k} />
              ))}
            </Table>
          )}
          <AddPasskey onDone={shown} />
        </section>
        {(a.totp || a.passkeys.length > 0) && (
          <section aria-labelledby="codes-title" className="flex flex-col gap-2">
            <h3 id="codes-title" className="font-semibold">
              Recovery codes
            </h3>
            <p className="text-sm">{a.recovery_codes_left} unused.</p>
            <ConfirmDialog
              trigger={<Button tone="secondary">Make new recovery codes</Button>}
              title="Make new recovery codes?"
              confirm="Make new codes"
              tone="primary"
              onConfirm={async () => shown((await portal.account.recoveryCodes.mutate()).recovery_codes)}
            >
              <p>Your current recovery codes stop working at once; the new ones are shown once.</p>
            </ConfirmDialog>
          </section>
        )}
      </div>
    </Card>
  );
}

/**
 * "Chrome on Linux" from a user agent, for a person to recognise their device (the whole string stays in
 * the cell's title). Only the common browsers and systems are named; ua-parser-js 2 is AGPL, and this is
 * a label, not a decision.
 */
const BROWSERS: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/Firefox\//, 'Firefox'],
  [/Chrome\/|Chromium\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux|X11/, 'Linux'],
];
const named = (ua: string, names: [RegExp, string][]) => names.find(([re]) => re.test(ua))?.[1];

function deviceName(ua: string | null): string {
  if (!ua) return 'Unknown device';
  const browser = named(ua, BROWSERS) ?? 'A browser';
  const system = named(ua, SYSTEMS);
  return system ? `${browser} on ${system}` : browser;
}

function Sessions({ a }: { a: Overview }) {
  const refresh = useRefresh();
  const others = a.sessions.filter((s) => !s.current).length;
  return (
    <Card title="Your sessions">
      <Table
        stacked
        caption="Where you are signed in"
        head={['Device', 'Address', 'Signed in', 'Last seen', 'Actions']}
      >
        {a.sessions.map((s) => (
          <Row key={s.id}>
            <Cell label="Device">
              <span title={s.user_agent ?? undefined}>{deviceName(s.user_agent)}</span>
              {s.current && <Badge tone="green">This session</Badge>}
            </Cell>
            <Cell label="Address">{s.ip ?? 'Unknown'}</Cell>
            <Cell label="Signed in">
              <Time iso={s.signed_in_at} />
            </Cell>
            <Cell label="Last seen">
              <Time iso={s.last_seen_at} />
            </Cell>
            <Cell label="Actions">
              {!s.current && (
                <ConfirmDialog
                  trigger={
                    <Button
                      tone="secondary"
                      aria-label={`End the session of ${deviceName(s.user_agent)} signed in ${new Date(s.signed_in_at).toISOString()}`}
                    >
                      End
                    </Button>
                  }
                  title="End this session?"
                  confirm="End session"
                  onConfirm={async () => {
                    await portal.account.endSession.mutate({ id: s.id });
                    await refresh();
                  }}
                >
                  <p>That device is signed out at once.</p>
                </ConfirmDialog>
              )}
            </Cell>
          </Row>
        ))}
      </Table>
      {others > 0 && (
        <div className="mt-3">
          <ConfirmDialog
            trigger={<Button tone="secondary">Sign out all other sessions</Button>}
            title="Sign out all other sessions?"
            confirm="Sign them out"
            onConfirm={async () => {
              await portal.account.endOtherSessions.mutate();
              await refresh();
            }}
          >
            <p>Every other device where you are signed in is signed out at once; this one stays.</p>
          </ConfirmDialog>
        </div>
      )}
    </Card>
  );
}

export function AccountManager() {
  const account = useQuery({ queryKey: ['account'], queryFn: () => portal.account.overview.query() });
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Your account</h1>
      {account.isPending && <Loading what="your account" />}
      {account.isError && (
        <LoadFailed message={portalError(account.error).message} retry={() => void account.refetch()} />
      )}
      {account.data && (
        <>
          {account.data.two_factor_required && !account.data.totp && account.data.passkeys.length === 0 && (
            <Alert tone="warning">This clinic requires two-factor sign-in for your role: set it up below.</Alert>
          )}
          <ChangePassword />
          <TwoFactor a={account.data} />
          <Sessions a={account.data} />
        </>
      )}
    </div>
  );
}
