'use client';
/**
 * Setting up a second factor, shared by Your account and the sign-in step a clinic's rule leads to: an
 * authenticator app (QR code and the secret as text, then a code to prove it works), a passkey (the
 * browser's own dialog, through @simplewebauthn/browser), and the recovery codes shown once after.
 */
import { startRegistration } from '@simplewebauthn/browser';
import { useState } from 'react';
import { useFormAction } from '../_lib/form';
import { portal, portalError } from '../_lib/trpc';
import { CopyField } from './copy-button';
import { Alert, Button, InlineError } from './ui';
import { InputField } from './input-field';

type Codes = string[] | null;
type RegistrationOptions = Parameters<typeof startRegistration>[0]['optionsJSON'];

export function TotpSetup({ onDone }: { onDone: (codes: Codes) => void }) {
  const [secret, setSecret] = useState<{ secret: string; qr_svg: string } | null>(null);
  const [code, setCode] = useState('');
  const [startError, setStartError] = useState<string | null>(null);
  const start = async () => {
    setStartError(null);
    try {
      setSecret(await portal.account.totpStart.mutate());
    } catch (err) {
      setStartError(portalError(err).message);
    }
  };
  const { submit, pending, error } = useFormAction(
    () => portal.account.totpConfirm.mutate({ code }),
    (r) => onDone(r.recovery_codes),
  );
  if (!secret)
    return (
      <div>
        <Button onClick={() => void start()}>Set up an authenticator app</Button>
        <InlineError message={startError} />
      </div>
    );
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3">
      <p className="text-sm">
        Scan this code with an authenticator app (1Password, Google Authenticator, Microsoft Authenticator…), or type
        the key below into it. Then enter the six-digit code it shows.
      </p>
      {/* The SVG is the server's (qrcode): markup made from the otpauth URI, nothing a person typed. */}
      <div
        role="img"
        aria-label="QR code for your authenticator app"
        className="h-48 w-48 rounded border border-slate-200 bg-white p-2"
        dangerouslySetInnerHTML={{ __html: secret.qr_svg }}
      />
      <CopyField id="totp-secret" label="Key to type into the app" value={secret.secret} />
      <InputField
        id="totp-code"
        label="Code from the app"
        error={error?.errors.code?.[0]}
        value={code}
        onValue={setCode}
        inputMode="numeric"
        autoComplete="one-time-code"
      />
      {error && !Object.keys(error.errors).length && <Alert>{error.message}</Alert>}
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? 'Checking…' : 'Turn on the app'}
        </Button>
      </div>
    </form>
  );
}

export function AddPasskey({ onDone }: { onDone: (codes: Codes) => void }) {
  const [name, setName] = useState('');
  const { submit, pending, error } = useFormAction(
    async () => {
      const options = await portal.account.passkeyOptions.mutate();
      // The server's options as JSON: tRPC's inferred type differs from the browser library's in extension typing only.
      const response = await startRegistration({ optionsJSON: options as RegistrationOptions });
      return portal.account.passkeyAdd.mutate({ name, response });
    },
    (r) => {
      setName('');
      onDone(r.recovery_codes);
    },
  );
  return (
    <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-3">
      <InputField
        id="passkey-name"
        label="Passkey name (where it lives)"
        error={error?.errors.name?.[0]}
        value={name}
        onValue={setName}
        placeholder="Work laptop"
      />
      <Button type="submit" disabled={pending}>
        {pending ? 'Waiting for the passkey…' : 'Add a passkey'}
      </Button>
      {error && !Object.keys(error.errors).length && (
        <div className="basis-full">
          <InlineError message={error.message} />
        </div>
      )}
    </form>
  );
}

export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <Alert tone="success">
      <p className="font-semibold">Your recovery codes</p>
      <p>
        Keep them somewhere safe (a password manager, or printed). Each one signs you in once if you lose your phone or
        passkey. They are shown only now.
      </p>
      <ul aria-label="Recovery codes" className="mt-2 grid grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="mt-2">
        <CopyField id="recovery-codes" label="All recovery codes" value={codes.join(' ')} />
      </div>
    </Alert>
  );
}
