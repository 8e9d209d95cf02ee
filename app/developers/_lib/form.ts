'use client';
/** A form's submit: calls the portal, keeps the API's error for inline messages, and reports success. */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { portalError, type PortalError } from './trpc';

export function useFormAction<T>(action: () => Promise<T>, onDone: (result: T) => void) {
  const [error, setError] = useState<PortalError | null>(null);
  const mutation = useMutation({
    mutationFn: action,
    onSuccess: (result) => {
      setError(null);
      onDone(result);
    },
    onError: (err) => setError(portalError(err)),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    mutation.mutate();
  };
  return { submit, pending: mutation.isPending, error };
}
