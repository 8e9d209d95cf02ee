'use client';
/** A form's submit: calls the portal, keeps the API's error for inline messages, and reports success. */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { portalError, type PortalError } from './trpc';

export function useFormAction<T>(action: () => Promise<T>, onDone: (result: T) => void) {
  const [error, setError] = useState<PortalError | null>(null);
  const form = useRef<HTMLFormElement | null>(null);
  const mutation = useMutation({
    mutationFn: action,
    onSuccess: (result) => {
      setError(null);
      onDone(result);
    },
    onError: (err) => setError(portalError(err)),
  });
  // The submit button was disabled while pending, so focus fell to <body>: once the refusal is drawn
  // (an effect runs after the commit), focus goes to the first field refused, or to the form's message.
  useEffect(() => {
    if (!error) return;
    const target = form.current?.querySelector<HTMLElement>('[aria-invalid="true"], [role="alert"]');
    if (!target) return;
    if (target.getAttribute('role') === 'alert' && !target.hasAttribute('tabindex')) target.tabIndex = -1;
    target.focus();
  }, [error]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (e.currentTarget instanceof HTMLFormElement) form.current = e.currentTarget;
    mutation.mutate();
  };
  return { submit, pending: mutation.isPending, error };
}
