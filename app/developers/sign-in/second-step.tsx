'use client';
/**
 * The steps after the password: the second factor (a code from the app, a passkey, or a recovery code),
 * or, when the clinic requires one and the member has none, setting one up now (then the recovery codes,
 * once). Only a session that passed the password reaches these; each answer is checked by the server.
 */
import { startAuthentication } from '@simplewebauthn/browser';
import { useState } from 'react';
import { AddPasskey, RecoveryCodes, TotpSetup } from '../_components/two-factor';
import { Alert, Button } from '../_components/ui';
import { InputField } from '../_components/input-field';
import { useFormAction } from '../_lib/form';
import { portal, portalError } from '../_lib/trpc';

type AuthenticationOptions = Parameters<typeof startAuthentication>[0]['optionsJSON'];

interface Factors {
  totp: boolean;
  passkeys: boolean;
}

export function SecondFactor({ factors, onDone }: { factors: Factors; onDone: () => void }) {
  const [way, setWay] = useState<'code' | 'recovery'>(factors.totp ? 'code' : 'recovery');
  const [value, setValue] = useState('');
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const { submit, pending, error } = useFormAction(
    () => portal.session.secondFactor.mutate(way === 'code' ? { code: value } : { recovery_code: value }),
    onDone,
  );
  const usePasskey = async () => {
    setPasskeyError(null);
    try {
      const options = await portal.session.passkeyOptions.mutate();
      const response = await startAuthentication({ optionsJSON: options as AuthenticationOptions });
      await portal.session.passkey.mutate({ response });
      onDone();
    } catch (err) {
      setPasskeyError(portalError(err).message);
    }
  };
  const field = way === 'code' ? 'code' : 'recovery_code';
  return (
    <section
      aria-labelledby="second-step"
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="second-step" className="text-lg font-semibold">
        Second step
      </h2>
      {factors.passkeys && (
        <div className="flex flex-col gap-2">
          <Button onClick={() => void usePasskey()}>Use a passkey</Button>
          {passkeyError && <Alert>{passkeyError}</Alert>}
        </div>
      )}
      <form onSubmit={submit} noValidate className="flex flex-col gap-3">
        <InputField
          id="factor"
          label={way === 'code' ? 'Code from your authenticator app' : 'Recovery code'}
          error={error?.errors[field]?.[0]}
          value={value}
          onValue={setValue}
          inputMode={way === 'code' ? 'numeric' : 'text'}
          autoComplete="one-time-code"
        />
        {error && !Object.keys(error.errors).length && <Alert>{error.message}</Alert>}
        <Button type="submit" disabled={pending}>
          {pending ? 'Checking…' : 'Continue'}
        </Button>
      </form>
      {factors.totp && (
        <button
          type="button"
          className="self-start text-sm underline"
          onClick={() => (setValue(''), setWay(way === 'code' ? 'recovery' : 'code'))}
        >
          {way === 'code' ? 'Use a recovery code instead' : 'Use a code from the app instead'}
        </button>
      )}
    </section>
  );
}

export function Enrol({ onDone }: { onDone: () => void }) {
  const [codes, setCodes] = useState<string[] | null | undefined>(undefined);
  if (codes !== undefined)
    return (
      <section className="flex flex-col gap-4" aria-label="Two-factor sign-in is on">
        {codes && <RecoveryCodes codes={codes} />}
        <Button onClick={onDone}>Continue to the portal</Button>
      </section>
    );
  return (
    <section
      aria-labelledby="enrol"
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="enrol" className="text-lg font-semibold">
        Set up two-factor sign-in
      </h2>
      <p className="text-sm">
        This clinic requires a second step at sign-in for your role. Set up an authenticator app or a passkey to go on.
      </p>
      <TotpSetup onDone={setCodes} />
      <hr className="border-slate-200" />
      <AddPasskey onDone={setCodes} />
    </section>
  );
}
