/** The portal's small set of building blocks, styled with Tailwind utilities. */
import type { ButtonHTMLAttributes, ComponentProps, ReactNode } from 'react';

const tones = {
  primary: 'bg-indigo-600 text-white hover:bg-indigo-700 disabled:bg-indigo-300',
  secondary: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-100 disabled:text-slate-400',
  danger: 'bg-red-600 text-white hover:bg-red-700 disabled:bg-red-300',
};

export function Button({
  tone = 'primary',
  className = '',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { tone?: keyof typeof tones }) {
  return (
    <button
      type="button"
      className={`inline-flex min-h-9 items-center justify-center rounded-md px-3 py-1.5 text-sm font-medium ${tones[tone]} ${className}`}
      {...props}
    />
  );
}

/** A labelled control with its inline error (announced, and tied to the control). */
export function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

const control = 'rounded-md border border-slate-300 bg-white px-3 py-2 text-sm aria-[invalid=true]:border-red-500';

export function TextInput({ error, ...props }: ComponentProps<'input'> & { error?: string }) {
  return (
    <input
      className={control}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? `${props.id}-error` : undefined}
      {...props}
    />
  );
}

export function Select({ error, ...props }: ComponentProps<'select'> & { error?: string }) {
  return (
    <select
      className={control}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? `${props.id}-error` : undefined}
      {...props}
    />
  );
}

export function Alert({
  tone = 'error',
  children,
}: {
  tone?: 'error' | 'warning' | 'success' | 'info';
  children: ReactNode;
}) {
  const styles = {
    error: 'border-red-300 bg-red-50 text-red-900',
    warning: 'border-amber-300 bg-amber-50 text-amber-900',
    success: 'border-emerald-300 bg-emerald-50 text-emerald-900',
    info: 'border-sky-300 bg-sky-50 text-sky-900',
  };
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded-md border px-4 py-3 text-sm ${styles[tone]}`}>
      {children}
    </div>
  );
}

/** An action's refusal, next to the control that caused it. */
export function InlineError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="mt-1 text-xs text-red-700">
      {message}
    </p>
  );
}

export function Badge({ tone, children }: { tone: 'green' | 'amber' | 'red' | 'slate'; children: ReactNode }) {
  const styles = {
    green: 'bg-emerald-100 text-emerald-800',
    amber: 'bg-amber-100 text-amber-900',
    red: 'bg-red-100 text-red-800',
    slate: 'bg-slate-200 text-slate-700',
  };
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium [overflow-wrap:normal] ${styles[tone]}`}
    >
      {children}
    </span>
  );
}

export function Card({ title, children, actions }: { title?: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6" aria-label={title}>
      {(title || actions) && (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
          {title && <h2 className="min-w-0 text-lg font-semibold [overflow-wrap:anywhere]">{title}</h2>}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p role="status" aria-live="polite" className="animate-pulse py-6 text-sm text-slate-500">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-md border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600">
      {children}
    </p>
  );
}

export function LoadFailed({ message, retry }: { message: string; retry: () => void }) {
  return (
    <Alert>
      <p>{message}</p>
      <Button tone="secondary" className="mt-2" onClick={retry}>
        Try again
      </Button>
    </Alert>
  );
}

/**
 * A table that scrolls sideways on a phone rather than squeezing its columns; `stacked`, it shows each
 * row as a block of labelled cells instead (with `Cell`), so status and actions stay on screen.
 */
export function Table({
  caption,
  head,
  children,
  stacked = false,
}: {
  caption: string;
  head: string[];
  children: ReactNode;
  stacked?: boolean;
}) {
  const table = (
    <table className={`w-full text-left text-sm ${stacked ? 'max-sm:block' : 'min-w-[40rem]'}`}>
      <caption className="sr-only">{caption}</caption>
      <thead
        className={`border-b border-slate-200 text-xs uppercase text-slate-500 ${stacked ? 'max-sm:sr-only' : ''}`}
      >
        <tr>
          {head.map((h) => (
            <th key={h} scope="col" className="px-2 py-2 font-medium">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={`divide-y divide-slate-100 ${stacked ? 'max-sm:block' : ''}`}>{children}</tbody>
    </table>
  );
  // A stacked table shows each row as a block on a phone and never scrolls; the others scroll sideways.
  return stacked ? table : <div className="overflow-x-auto">{table}</div>;
}

/** A row of a stacked table: a block on a phone. */
export function Row({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <tr className={`align-top max-sm:block max-sm:py-2 ${className}`}>{children}</tr>;
}

/** A cell of a stacked table: on a phone it shows its column's name (screen readers have the header). */
export function Cell({
  label,
  children,
  className = '',
}: {
  label?: string;
  children?: ReactNode;
  className?: string;
}) {
  return (
    // Anywhere only on a phone: on a desktop it would break short words like a status inside narrow columns.
    <td
      className={`px-2 py-3 break-words max-sm:flex max-sm:gap-3 max-sm:py-1 max-sm:[overflow-wrap:anywhere] ${className}`}
    >
      {label && (
        <span aria-hidden="true" className="w-28 shrink-0 text-xs uppercase text-slate-500 sm:hidden">
          {label}
        </span>
      )}
      <div className="min-w-0">{children}</div>
    </td>
  );
}

export const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '—';
