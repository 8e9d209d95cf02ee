'use client';
/**
 * What the app asks for, and Allow / Deny. Allow sends the browser back to the app; so does Deny for an
 * app this clinic approved before (any other gets a page saying nothing was connected).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert, Button, LoadFailed, Loading } from '../_components/ui';
import { portal, portalError } from '../_lib/trpc';

/**
 * The app's request could not be trusted, so there is no app to send the person back to safely: say
 * what is wrong, and where to go from here.
 */
/** The server's reason without its lead-in, to read on from a colon. */
const reason = (message: string) => {
  const r = message.replace(/^This connection request cannot be used: /, '').replace(/\.$/, '');
  return r.charAt(0).toLowerCase() + r.slice(1);
};

function BadRequest({ message }: { message: string }) {
  return (
    <section
      aria-labelledby="consent-title"
      className="flex flex-col gap-3 rounded-lg border border-red-300 bg-red-50 p-6 text-sm text-red-900"
    >
      <h1 id="consent-title" className="text-xl font-semibold">
        This connection request cannot be used
      </h1>
      <p role="alert">The app sent a request this clinic cannot accept: {reason(message)}. Nothing was connected.</p>
      <p>
        Go back to the app that sent you here and start connecting from it again; if it keeps happening, the app&rsquo;s
        developer needs to fix its settings. To see or disconnect the apps already connected, open{' '}
        <a className="font-medium underline" href="/developers/connectors">
          AI connectors
        </a>
        .
      </p>
    </section>
  );
}

export function ConsentForm({ query }: { query: string }) {
  const request = useQuery({
    queryKey: ['consent', query],
    queryFn: () => portal.connectors.describe.query({ query }),
  });
  const [busy, setBusy] = useState<'allow' | 'deny' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [denied, setDenied] = useState(false);

  const answer = async (choice: 'allow' | 'deny') => {
    setBusy(choice);
    setError(null);
    try {
      const { redirect } =
        choice === 'allow'
          ? await portal.connectors.approve.mutate({ query })
          : await portal.connectors.deny.mutate({ query });
      // No address to go back to: the app is not one this clinic has approved before.
      if (redirect === null) return setDenied(true);
      window.location.assign(redirect);
    } catch (err) {
      setError(portalError(err).message);
      setBusy(null);
    }
  };

  if (request.isPending) return <Loading what="the connection request" />;
  if (request.isError) {
    const failed = portalError(request.error);
    // A request the server will never accept (unknown app, unregistered return address): asking again changes nothing.
    if (failed.code === 'invalid_input') return <BadRequest message={failed.message} />;
    return <LoadFailed message={failed.message} retry={() => void request.refetch()} />;
  }
  const r = request.data;
  if (denied) {
    return (
      <section
        aria-labelledby="consent-title"
        className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-6"
      >
        <h1 id="consent-title" className="text-xl font-semibold">
          Nothing was connected
        </h1>
        <p role="status" className="text-sm">
          You denied {r.valid ? r.client_name : 'the app'} access to {r.valid ? r.clinic : 'this clinic'}. No one in
          this clinic has approved this app before, so you are not sent back to it: you can close this tab.
        </p>
      </section>
    );
  }
  if (!r.valid) {
    return (
      <Alert>
        This connection request cannot be approved.{' '}
        <a className="underline" href={r.redirect}>
          Return to the app
        </a>
        .
      </Alert>
    );
  }
  return (
    <section
      aria-labelledby="consent-title"
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h1 id="consent-title" className="text-2xl font-semibold">
        Connect {r.client_name} to {r.clinic}?
      </h1>
      <p className="text-sm text-slate-600">
        After you allow it, you go back to <strong>{r.redirect_host}</strong>. The app acts as you: it can do only what
        your role allows, and you or an admin can disconnect it at any time under Developers → AI connectors.
      </p>
      <div>
        <h2 className="text-sm font-semibold">It will be able to</h2>
        <ul className="mt-1 list-disc pl-5 text-sm">
          {r.scopes.map((s) => (
            <li key={s.scope}>{s.description}</li>
          ))}
          <li>It cannot change anything: the connection is read-only.</li>
        </ul>
        <p className="mt-2 text-sm">{r.sees}</p>
      </div>
      {!r.known && (
        <Alert tone="warning">
          No one in {r.clinic} has connected this app before. “{r.client_name}” is the name it gave itself when it
          registered: allow it only if you started this from the app you expect, and it returns to {r.redirect_host}.
        </Alert>
      )}
      {!r.can_connect && (
        <Alert tone="warning">
          Your role does not allow connecting AI apps (it needs the permission “Connect AI apps”). Ask an admin or the
          account owner.
        </Alert>
      )}
      {error && <Alert>{error}</Alert>}
      <div className="flex gap-3">
        <Button onClick={() => void answer('allow')} disabled={!r.can_connect || busy !== null}>
          {busy === 'allow' ? 'Connecting…' : 'Allow'}
        </Button>
        <Button tone="secondary" onClick={() => void answer('deny')} disabled={busy !== null}>
          {busy === 'deny' ? 'Returning…' : 'Deny'}
        </Button>
      </div>
      <p className="text-xs text-slate-500">App id: {r.client_id}</p>
    </section>
  );
}
