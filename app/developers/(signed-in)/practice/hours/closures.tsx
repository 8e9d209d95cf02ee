'use client';
/**
 * Clinic-wide closures (a bank holiday): one location or every location closed for everyone on a date,
 * the whole day or some hours, entered once instead of a day off per practitioner (review point 13).
 * Listed from today on; each removed after a confirmation.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type RefObject } from 'react';
import { ConfirmDialog } from '../../../_components/confirm-dialog';
import { Button, Card, Empty, Field, LoadFailed, Loading, Select, TextInput } from '../../../_components/ui';
import { useFormAction } from '../../../_lib/form';
import { portal, portalError } from '../../../_lib/trpc';
import { dayName } from './exceptions';

type Closure = Awaited<ReturnType<typeof portal.practice.hours.closures.list.query>>['data'][number];
const said = (c: Closure) =>
  `${c.location} closed on ${dayName(c.date)}, ${c.whole_day ? 'whole day' : `${c.from}–${c.to}`}`;

export function Closures({
  locations,
  canManage,
  heading,
  refresh,
}: {
  locations: { id: number; name: string }[];
  canManage: boolean;
  heading: RefObject<HTMLHeadingElement | null>;
  refresh: () => Promise<unknown>;
}) {
  const list = useQuery({
    queryKey: ['practice', 'closures'],
    queryFn: () => portal.practice.hours.closures.list.query(),
  });
  const [where, setWhere] = useState('all');
  const [date, setDate] = useState('');
  const [wholeDay, setWholeDay] = useState(true);
  const [from, setFrom] = useState('09:00');
  const [to, setTo] = useState('13:00');
  const [note, setNote] = useState('');
  const { submit, pending, error } = useFormAction(
    () =>
      portal.practice.hours.closures.create.mutate({
        location_id: where === 'all' ? null : Number(where),
        date,
        starts_at: wholeDay ? null : from,
        ends_at: wholeDay ? null : to,
        description: note,
      }),
    () => {
      setDate('');
      setNote('');
      void refresh();
    },
  );
  const err = (k: string) => error?.errors[k]?.[0];
  const other = error && !['date', 'location_id', 'starts_at', 'ends_at'].some(err) ? error.message : null;
  return (
    <Card title="Clinic closures">
      <p className="mb-3 text-sm text-slate-600">
        A bank holiday or a closed site: no one can be booked there then, whatever their hours.
      </p>
      {list.isPending ? (
        <Loading what="closures" />
      ) : list.isError ? (
        <LoadFailed message={portalError(list.error).message} retry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <Empty>No closures ahead.</Empty>
      ) : (
        <ul aria-label="Closures" className="mb-4 flex flex-col gap-2">
          {list.data.data.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center gap-2 text-sm">
              <span>
                {said(c)}
                {c.description ? ` (${c.description})` : ''}
              </span>
              {canManage && (
                <ConfirmDialog
                  trigger={
                    <Button tone="secondary" className="min-h-8 px-2 py-0.5" aria-label={`Remove: ${said(c)}`}>
                      Remove
                    </Button>
                  }
                  focusAfter={() => heading.current}
                  title={`Open ${c.location} on ${dayName(c.date)}?`}
                  confirm="Remove the closure"
                  onConfirm={async () => {
                    await portal.practice.hours.closures.delete.mutate({ id: c.id });
                    await refresh();
                  }}
                >
                  <p>The practitioners&apos; own hours apply there again that day: their free time can be booked.</p>
                </ConfirmDialog>
              )}
            </li>
          ))}
        </ul>
      )}
      {canManage && (
        <form onSubmit={submit} noValidate aria-label="Add a closure" className="flex flex-wrap items-end gap-3">
          <Field id="closure-where" label="Where" error={err('location_id')}>
            <Select id="closure-where" value={where} onChange={(e) => setWhere(e.target.value)}>
              <option value="all">Every location</option>
              {locations.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="closure-date" label="Date" error={err('date')}>
            <TextInput
              id="closure-date"
              type="date"
              value={date}
              onChange={(e) => setDate(e.target.value)}
              error={err('date')}
            />
          </Field>
          <label className="flex min-h-9 items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-5"
              checked={wholeDay}
              onChange={(e) => setWholeDay(e.target.checked)}
            />
            Whole day
          </label>
          {!wholeDay && (
            <>
              <Field id="closure-from" label="From" error={err('starts_at')}>
                <TextInput
                  id="closure-from"
                  type="time"
                  value={from}
                  onChange={(e) => setFrom(e.target.value)}
                  error={err('starts_at')}
                />
              </Field>
              <Field id="closure-to" label="To" error={err('ends_at')}>
                <TextInput
                  id="closure-to"
                  type="time"
                  value={to}
                  onChange={(e) => setTo(e.target.value)}
                  error={err('ends_at')}
                />
              </Field>
            </>
          )}
          <Field id="closure-note" label="Note (optional)">
            <TextInput id="closure-note" value={note} onChange={(e) => setNote(e.target.value)} maxLength={255} />
          </Field>
          <Button type="submit" disabled={pending}>
            {pending ? 'Closing…' : 'Add closure'}
          </Button>
          {other && (
            <p role="alert" className="basis-full text-sm text-red-700">
              {other}
            </p>
          )}
        </form>
      )}
    </Card>
  );
}
