'use client';
/**
 * Dated exceptions to the weekly hours, as a front desk says them: "Monday 5 January: day off",
 * "Saturday 10 January: extra hours 09:00–12:00". Listed from today on, added and edited with a date,
 * whole day or from–to, and removed after a confirmation. The dates are the clinic's calendar days (the
 * server refuses one already gone by in the clinic's zone).
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type RefObject } from 'react';
import { ConfirmDialog } from '../../../_components/confirm-dialog';
import { Badge, Button, Card, Empty, Field, LoadFailed, Loading, Select, TextInput } from '../../../_components/ui';
import { useFormAction } from '../../../_lib/form';
import { portal, portalError } from '../../../_lib/trpc';

type Exception = Awaited<ReturnType<typeof portal.practice.hours.exceptions.list.query>>['data'][number];
type Kind = 'closed' | 'custom_availability';
const KINDS: Record<Kind, string> = { closed: 'Time off', custom_availability: 'Extra hours' };

/** "Monday 5 January 2026": a clinic calendar day, named the same wherever the browser is. */
export const dayName = (d: string) =>
  new Date(`${d}T12:00:00Z`).toLocaleDateString('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
const hoursOf = (e: Pick<Exception, 'whole_day' | 'from' | 'to'>) => (e.whole_day ? 'whole day' : `${e.from}–${e.to}`);
const summary = (e: Exception) => `${KINDS[e.type as Kind] ?? e.type} on ${dayName(e.date)}, ${hoursOf(e)}`;

interface Draft {
  type: Kind;
  date: string;
  wholeDay: boolean;
  from: string;
  to: string;
  note: string;
}

function ExceptionForm({
  initial,
  label,
  submitLabel,
  save,
  onDone,
  onCancel,
}: {
  initial: Draft;
  label: string;
  submitLabel: string;
  save: (d: Draft) => Promise<unknown>;
  onDone: () => void;
  onCancel?: () => void;
}) {
  const [d, setD] = useState<Draft>(initial);
  const id = useId();
  const set = (patch: Partial<Draft>) => setD((prev) => ({ ...prev, ...patch }));
  const { submit, pending, error } = useFormAction(
    () => save(d),
    () => {
      if (!onCancel) setD(initial);
      onDone();
    },
  );
  const whole = d.type === 'closed' && d.wholeDay;
  const err = (k: string) => error?.errors[k]?.[0];
  const shown = ['type', 'date', 'starts_at', 'ends_at', 'description'];
  const other = error && !shown.some((k) => err(k)) ? error.message : null;
  return (
    <form onSubmit={submit} noValidate aria-label={label} className="flex flex-col gap-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id={`${id}-type`} label="Kind" error={err('type')}>
          <Select
            id={`${id}-type`}
            value={d.type}
            onChange={(e) => set({ type: e.target.value as Kind })}
            error={err('type')}
          >
            <option value="closed">{KINDS.closed}</option>
            <option value="custom_availability">{KINDS.custom_availability}</option>
          </Select>
        </Field>
        <Field id={`${id}-date`} label="Date" error={err('date')}>
          <TextInput
            id={`${id}-date`}
            type="date"
            required
            value={d.date}
            onChange={(e) => set({ date: e.target.value })}
            error={err('date')}
          />
        </Field>
      </div>
      {d.type === 'closed' && (
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={d.wholeDay}
            onChange={(e) => set({ wholeDay: e.target.checked })}
            className="h-4 w-4"
          />
          Whole day
        </label>
      )}
      {!whole && (
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id={`${id}-from`} label="From" error={err('starts_at')}>
            <TextInput
              id={`${id}-from`}
              type="time"
              value={d.from}
              onChange={(e) => set({ from: e.target.value })}
              error={err('starts_at')}
            />
          </Field>
          <Field id={`${id}-to`} label="To" error={err('ends_at')}>
            <TextInput
              id={`${id}-to`}
              type="time"
              value={d.to}
              onChange={(e) => set({ to: e.target.value })}
              error={err('ends_at')}
            />
          </Field>
        </div>
      )}
      <Field id={`${id}-note`} label="Note (optional)" error={err('description')}>
        <TextInput
          id={`${id}-note`}
          value={d.note}
          onChange={(e) => set({ note: e.target.value })}
          error={err('description')}
          placeholder="Bank holiday, training day …"
        />
      </Field>
      {other && (
        <p role="alert" className="text-sm text-red-700">
          {other}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : submitLabel}
        </Button>
        {onCancel && (
          <Button tone="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}

/** What the server stores from a draft: both times null for a whole day off. */
const timesOf = (d: Draft) =>
  d.type === 'closed' && d.wholeDay
    ? { starts_at: null, ends_at: null }
    : { starts_at: d.from, ends_at: d.to === '00:00' ? '24:00' : d.to };

export function Exceptions({
  practitionerId,
  locationId,
  who,
  canManage,
  heading,
  refresh,
}: {
  practitionerId: number;
  locationId: number;
  who: string;
  canManage: boolean;
  heading: RefObject<HTMLHeadingElement | null>;
  refresh: () => Promise<unknown>;
}) {
  const list = useQuery({
    queryKey: ['practice', 'exceptions', practitionerId, locationId],
    queryFn: () =>
      portal.practice.hours.exceptions.list.query({ practitioner_id: practitionerId, location_id: locationId }),
  });
  const [editing, setEditing] = useState<number | null>(null);
  const blank: Draft = { type: 'closed', date: '', wholeDay: true, from: '09:00', to: '17:00', note: '' };

  return (
    <Card title={`Days off and extra hours: ${who}`}>
      <div className="flex flex-col gap-4">
        <p className="text-sm text-slate-700">
          For one date only: a day off, a holiday closure or a few hours away, or extra hours. They win over the weekly
          hours on that date.
        </p>
        {list.isPending ? (
          <Loading what="days off and extra hours" />
        ) : list.isError ? (
          <LoadFailed message={portalError(list.error).message} retry={() => void list.refetch()} />
        ) : list.data.data.length === 0 ? (
          <Empty>No days off or extra hours from today on.</Empty>
        ) : (
          <ul aria-label="Upcoming days off and extra hours" className="flex flex-col divide-y divide-slate-100">
            {list.data.data.map((e) => (
              <li key={e.id} className="flex flex-col gap-2 py-3">
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <Badge tone={e.type === 'closed' ? 'amber' : 'green'}>{KINDS[e.type as Kind] ?? e.type}</Badge>
                  <strong>{dayName(e.date)}</strong>
                  <span>{e.whole_day ? 'Whole day' : `${e.from}–${e.to}`}</span>
                  {e.description && <span className="text-slate-600">({e.description})</span>}
                  {canManage && editing !== e.id && (
                    <span className="ml-auto flex gap-2">
                      <Button
                        tone="secondary"
                        className="min-h-8 px-2 py-0.5"
                        aria-label={`Edit ${summary(e)}`}
                        onClick={() => setEditing(e.id)}
                      >
                        Edit
                      </Button>
                      <ConfirmDialog
                        trigger={
                          <Button tone="secondary" className="min-h-8 px-2 py-0.5" aria-label={`Remove ${summary(e)}`}>
                            Remove
                          </Button>
                        }
                        focusAfter={() => heading.current}
                        title={`Remove ${summary(e)}?`}
                        confirm="Remove"
                        onConfirm={async () => {
                          await portal.practice.hours.exceptions.delete.mutate({ id: e.id });
                          await refresh();
                        }}
                      >
                        <p>
                          {e.type === 'closed'
                            ? `${who} works their weekly hours on ${dayName(e.date)} again: that time becomes bookable.`
                            : `The extra hours go: no new bookings then. Appointments already booked stay.`}
                        </p>
                      </ConfirmDialog>
                    </span>
                  )}
                </div>
                {editing === e.id && (
                  <ExceptionForm
                    label={`Edit ${summary(e)}`}
                    submitLabel="Save"
                    initial={{
                      type: e.type as Kind,
                      date: e.date,
                      wholeDay: e.whole_day,
                      from: e.from ?? '09:00',
                      to: e.to ?? '17:00',
                      note: e.description ?? '',
                    }}
                    save={(d) =>
                      portal.practice.hours.exceptions.update.mutate({
                        id: e.id,
                        type: d.type,
                        date: d.date,
                        ...timesOf(d),
                        description: d.note,
                      })
                    }
                    onDone={() => {
                      setEditing(null);
                      void refresh();
                    }}
                    onCancel={() => setEditing(null)}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
        {canManage && (
          <section aria-labelledby="add-exception" className="flex flex-col gap-2 border-t border-slate-100 pt-4">
            <h3 id="add-exception" className="font-medium">
              Add a day off or extra hours
            </h3>
            <ExceptionForm
              label="Add a day off or extra hours"
              submitLabel="Add"
              initial={blank}
              save={(d) =>
                portal.practice.hours.exceptions.create.mutate({
                  practitioner_id: practitionerId,
                  location_id: locationId,
                  type: d.type,
                  date: d.date,
                  ...timesOf(d),
                  description: d.note,
                })
              }
              onDone={() => void refresh()}
            />
          </section>
        )}
      </div>
    </Card>
  );
}
