'use client';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Alert, Button } from '../_components/ui';
import { InputField } from '../_components/input-field';
import { afterSignIn } from '../_lib/next';
import { portal, portalError, type PortalError } from '../_lib/trpc';
import { Enrol, SecondFactor } from './second-step';

/** `next`: where to go once signed in (a portal path only: never another site). */
export function SignInForm({ next }: { next?: string }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<PortalError | null>(null);
  const [busy, setBusy] = useState(false);
  // A session part way through (the page reloaded after the password) goes on from its step.
  const resumed = useQuery({ queryKey: ['sign-in step'], queryFn: () => portal.session.step.query() });
  const [step, setStep] = useState<{
    next: 'second_factor' | 'enrol';
    factors: { totp: boolean; passkeys: boolean };
  } | null>(null);
  // A full load, so the server renders the pages with the new session.
  const done = () => window.location.assign(afterSignIn(next));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await portal.session.signIn.mutate({ email, password });
      if (r.next === 'signed_in') return done();
      setStep({ next: r.next, factors: r.factors });
      setBusy(false);
    } catch (err) {
      setError(portalError(err));
      setBusy(false);
    }
  };

  const current =
    step ??
    (resumed.data &&
    (resumed.data.next === 'second_factor' || resumed.data.next === 'enrol') &&
    'factors' in resumed.data
      ? { next: resumed.data.next, factors: resumed.data.factors! }
      : null);
  if (current?.next === 'second_factor') return <SecondFactor factors={current.factors} onDone={done} />;
  if (current?.next === 'enrol') return <Enrol onDone={done} />;

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      {error && !Object.keys(error.errors).length && <Alert>{error.message}</Alert>}
      <InputField
        id="email"
        label="Email"
        error={error?.errors.email?.[0]}
        value={email}
        onValue={setEmail}
        type="email"
        autoComplete="username"
        required
      />
      <InputField
        id="password"
        label="Password"
        error={error?.errors.password?.[0]}
        value={password}
        onValue={setPassword}
        type="password"
        autoComplete="current-password"
        required
      />
      <Button type="submit" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
