'use client';
import { useLayoutEffect, useRef, type InputHTMLAttributes } from 'react';
import { Field, TextInput } from './ui';

/** A labelled input with its inline error: the one shape of every text, code and password field. */
export function InputField({
  id,
  label,
  error,
  value,
  onValue,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & {
  id: string;
  label: string;
  error?: string;
  value: string;
  onValue: (value: string) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  // What a person typed before the page's script ran is in the input but not in the state: the next
  // render would set the input back to the state and lose it (an email typed on a slow connection).
  useLayoutEffect(() => {
    const typed = input.current?.value;
    if (typed && typed !== value) onValue(typed);
    // Once, as the page comes alive: later the state leads.
  }, []);
  return (
    <Field id={id} label={label} error={error}>
      <TextInput ref={input} id={id} value={value} onChange={(e) => onValue(e.target.value)} error={error} {...props} />
    </Field>
  );
}
