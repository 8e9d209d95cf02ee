'use client';
/** The event types an endpoint receives: all, or a choice from the catalogue (the same list OpenAPI's `webhooks` uses), with a link to what each one means. */
import Link from 'next/link';
import type { EventTypeInfo } from '../../../../server/events/types';

export type EventChoice = 'all' | string[];

export function EventTypesField({
  id,
  types,
  value,
  onChange,
  error,
}: {
  id: string;
  types: readonly EventTypeInfo[];
  value: EventChoice;
  onChange: (v: EventChoice) => void;
  error?: string;
}) {
  const chosen = value === 'all' ? [] : value;
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium text-slate-700">Event types</legend>
      <p className="mt-1 text-xs text-slate-600">
        What each type means and an example payload:{' '}
        <Link href="/developers/webhooks/events" className="text-indigo-700 underline">
          event types
        </Link>
        .
      </p>
      <label className="mt-1 flex min-h-9 items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={value === 'all'}
          onChange={(e) => onChange(e.target.checked ? 'all' : [])}
          className="size-5"
        />{' '}
        All event types
      </label>
      {value !== 'all' && (
        <>
          <p className="mt-1 text-xs text-slate-600">
            Types marked “never fires yet” are in the specification, but no change made today announces them (their
            resources are read-only through the API, for one).
          </p>
          {/* Not a scrolling box: every type stays reachable by Tab and by a finger, and each box is a 24 px target. */}
          <div className="mt-2 grid gap-1 rounded border border-slate-200 p-2 sm:grid-cols-2 lg:grid-cols-3">
            {types.map(({ type: t, fires, reason }) => (
              <label
                key={t}
                className="flex min-h-9 min-w-0 items-center gap-2 font-mono text-xs [overflow-wrap:anywhere]"
                title={reason ?? undefined}
              >
                <input
                  type="checkbox"
                  checked={chosen.includes(t)}
                  onChange={() => onChange(chosen.includes(t) ? chosen.filter((x) => x !== t) : [...chosen, t])}
                  className="size-5 shrink-0"
                />
                <span className={fires ? undefined : 'text-slate-500'}>{t}</span>
                {!fires && <span className="font-sans text-slate-500">(never fires yet)</span>}
              </label>
            ))}
          </div>
        </>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
