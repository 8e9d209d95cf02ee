'use client';
/**
 * Choosing a password from a one-time link. The token is read from the URL's fragment (never sent to a
 * server in a request line) and taken off the address bar at once; the rules are the server's.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Alert, Button, Loading } from '../_components/ui';
import { InputField } from '../_components/input-field';
import { useFormAction } from '../_lib/form';
import { portal, portalError } from '../_lib/trpc';

export function SetPasswordForm() {
  const [token, setToken] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    // Read at load, and again when another link is opened in this tab (only the fragment changes).
    const read = () => {
      const found = new URLSearchParams(window.location.hash.slice(1)).get('token');
      if (found === null && token !== undefined) return;
      setToken(found);
      if (found) history.replaceState(null, '', window.location.pathname);
    };
    read();
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, [token]);
  const link = useQuery({
    queryKey: ['password link', token],
    queryFn: () => portal.password.describe.query({ token: token! }),
    enabled: Boolean(token),
    retry: false,
  });
  const [password, setPassword] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const { submit, pending, error } = useFormAction(
    () => portal.password.set.mutate({ token: token!, password }),
    (r) => setDone(r.email),
  );

  if (done)
    return (
      <section aria-labelledby="title" className="flex flex-col gap-3">
        <h1 id="title" className="text-2xl font-semibold">
          Password saved
        </h1>
        <p role="status">Your password is set. Sign in with {done} and your new password.</p>
        <a className="font-medium underline" href="/developers/sign-in">
          Sign in
        </a>
      </section>
    );
  if (token === undefined || (token && link.isPending)) return <Loading what="your link" />;
  if (!token || link.isError)
    return (
      <section aria-labelledby="title" className="flex flex-col gap-3">
        <h1 id="title" className="text-2xl font-semibold">
          This link does not work
        </h1>
        <Alert>
          {token
            ? portalError(link.error).message
            : 'The link is incomplete: open it again from the email or copy all of it.'}
        </Alert>
        <p className="text-sm">An admin of the clinic can send you a new one from the Team page.</p>
      </section>
    );
  const setup = link.data!.purpose === 'setup';
  return (
    <section aria-labelledby="title" className="flex flex-col gap-4">
      <h1 id="title" className="text-2xl font-semibold">
        {setup ? `Welcome, ${link.data!.name}` : 'Choose a new password'}
      </h1>
      <p className="text-sm text-slate-600">
        {setup ? 'Choose the password you will sign in with as ' : 'A new password for '}
        <strong>{link.data!.email}</strong>. Use at least 15 characters: a few words you will remember work well. Very
        common passwords are refused.
      </p>
      <form
        onSubmit={submit}
        noValidate
        className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
      >
        {/* The email, for password managers to file the new password under. */}
        <input type="email" name="username" autoComplete="username" value={link.data!.email} readOnly hidden />
        <InputField
          id="new-password"
          label="New password"
          error={error?.errors.password?.[0]}
          value={password}
          onValue={setPassword}
          type="password"
          autoComplete="new-password"
        />
        {error && !Object.keys(error.errors).length && <Alert>{error.message}</Alert>}
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : 'Save password'}
        </Button>
      </form>
    </section>
  );
}
