'use client';
/**
 * The event types an endpoint receives: all, or a choice from the catalogue (the same list OpenAPI's
 * `webhooks` uses), grouped by resource with a box for each group's firing types and a search, with a
 * link to what each one means.
 */
import Link from 'next/link';
import { useState } from 'react';
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
  const [search, setSearch] = useState('');
  const wanted = search.trim().toLowerCase();
  // By resource (the part before the dot), in the catalogue's order; chosen types stay listed whatever the search.
  const groups = [
    ...types
      .filter((t) => !wanted || t.type.toLowerCase().includes(wanted) || chosen.includes(t.type))
      .reduce((by, t) => {
        const resource = t.type.slice(0, t.type.indexOf('.'));
        return by.set(resource, [...(by.get(resource) ?? []), t]);
      }, new Map<string, EventTypeInfo[]>()),
  ];
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
          <div className="mt-2 flex flex-col gap-1">
            <label htmlFor={`${id}-search`} className="text-xs font-medium text-slate-700">
              Find an event type
            </label>
            <input
              id={`${id}-search`}
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder="e.g. invoices or cancelled"
              className="min-h-9 max-w-sm rounded-md border border-slate-300 px-3 py-1 text-sm"
            />
          </div>
          {/* Grouped by resource as the event catalogue is; not a scrolling box: every type stays reachable by Tab. */}
          <div className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
            {groups.map(([resource, inGroup]) => {
              const firing: string[] = inGroup.filter((t) => t.fires).map((t) => t.type);
              const taken = firing.filter((t) => chosen.includes(t)).length;
              return (
                <fieldset key={resource} className="min-w-0 rounded border border-slate-200 p-2">
                  <legend className="px-1 font-mono text-xs font-semibold">{resource}</legend>
                  {firing.length > 1 && (
                    <label className="flex min-h-9 items-center gap-2 text-xs">
                      <input
                        type="checkbox"
                        className="size-5 shrink-0"
                        checked={taken === firing.length}
                        ref={(box) => {
                          if (box) box.indeterminate = taken > 0 && taken < firing.length;
                        }}
                        onChange={(e) =>
                          onChange(
                            e.target.checked
                              ? [...new Set([...chosen, ...firing])]
                              : chosen.filter((t) => !firing.includes(t)),
                          )
                        }
                      />
                      Every {resource} event that fires
                    </label>
                  )}
                  {inGroup.map(({ type: t, fires, reason }) => (
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
                </fieldset>
              );
            })}
          </div>
          {groups.length === 0 && <p className="mt-2 text-sm text-slate-600">No event type matches “{search}”.</p>}
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
