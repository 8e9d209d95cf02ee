'use client';
/**
 * Weekly opening hours of one practitioner at one location, as a receptionist reads a rota: a row per
 * weekday (Monday first) with its working hours and breaks, each added with from–to times and removed
 * after a confirmation; then the dated exceptions (days off, extra hours: ./exceptions.tsx). Below, the
 * free slots all of them give over the next days for an appointment type, from the same availability
 * search the API answers GET /availability with.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../../../_components/confirm-dialog';
import {
  Alert,
  Badge,
  Button,
  Card,
  Empty,
  Field,
  LoadFailed,
  Loading,
  Select,
  TextInput,
} from '../../../_components/ui';
import { useFormAction } from '../../../_lib/form';
import { portal, portalError } from '../../../_lib/trpc';
import { Closures } from './closures';
import { Exceptions } from './exceptions';

const DAYS = [
  { day: '1', name: 'Monday' },
  { day: '2', name: 'Tuesday' },
  { day: '3', name: 'Wednesday' },
  { day: '4', name: 'Thursday' },
  { day: '5', name: 'Friday' },
  { day: '6', name: 'Saturday' },
  { day: '0', name: 'Sunday' },
] as const;
const KINDS = { open: 'Working hours', break: 'Break' } as const;

type Hours = Awaited<ReturnType<typeof portal.practice.hours.list.query>>['data'][number];

function AddHours({
  day,
  dayName,
  practitionerId,
  locationId,
  onAdded,
}: {
  day: string;
  dayName: string;
  practitionerId: number;
  locationId: number;
  onAdded: () => void;
}) {
  const [type, setType] = useState<'open' | 'break'>('open');
  const [from, setFrom] = useState('09:00');
  const [to, setTo] = useState('17:00');
  const { submit, pending, error } = useFormAction(
    () =>
      portal.practice.hours.create.mutate({
        practitioner_id: practitionerId,
        location_id: locationId,
        day: day as '1',
        type,
        starts_at: from,
        ends_at: to,
      }),
    onAdded,
  );
  const id = `add-${day}`;
  const fromError = error?.errors.starts_at?.[0];
  const toError = error?.errors.ends_at?.[0];
  const other = error && !fromError && !toError ? error.message : null;
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={`Add hours on ${dayName}`}
      className="flex flex-wrap items-end gap-2"
    >
      <Field id={`${id}-type`} label={`Kind (${dayName})`}>
        <Select id={`${id}-type`} value={type} onChange={(e) => setType(e.target.value as 'open' | 'break')}>
          <option value="open">{KINDS.open}</option>
          <option value="break">{KINDS.break}</option>
        </Select>
      </Field>
      <Field id={`${id}-from`} label={`From (${dayName})`} error={fromError}>
        <TextInput
          id={`${id}-from`}
          type="time"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          error={fromError}
        />
      </Field>
      <Field id={`${id}-to`} label={`To (${dayName})`} error={toError}>
        <TextInput id={`${id}-to`} type="time" value={to} onChange={(e) => setTo(e.target.value)} error={toError} />
      </Field>
      <Button
        type="submit"
        tone="secondary"
        disabled={pending}
        aria-label={`Add ${KINDS[type].toLowerCase()} on ${dayName}`}
      >
        {pending ? 'Adding…' : 'Add'}
      </Button>
      {other && (
        <p role="alert" className="basis-full text-sm text-red-700">
          {other}
        </p>
      )}
    </form>
  );
}

/** One weekday's hours copied to the days ticked (the other weekdays at first), replacing theirs, after a dialog. */
function CopyDay({
  day,
  dayName,
  practitionerId,
  locationId,
  focusAfter,
  onCopied,
}: {
  day: string;
  dayName: string;
  practitionerId: number;
  locationId: number;
  focusAfter: () => HTMLElement | null;
  onCopied: () => Promise<unknown>;
}) {
  const others = DAYS.filter((d) => d.day !== day);
  const weekdays = (d: string) => d !== '0' && d !== '6';
  const [chosen, setChosen] = useState<string[]>(() => others.map((d) => d.day).filter(weekdays));
  const names = others.filter((d) => chosen.includes(d.day)).map((d) => d.name);
  return (
    <ConfirmDialog
      trigger={
        <Button tone="secondary" className="min-h-8 px-2 py-0.5">
          Copy {dayName} to other days
        </Button>
      }
      focusAfter={focusAfter}
      title={`Copy ${dayName}'s hours?`}
      confirm={names.length ? `Copy to ${names.length === 1 ? names[0] : `${names.length} days`}` : 'Copy'}
      tone="primary"
      onConfirm={async () => {
        await portal.practice.hours.copyDay.mutate({
          practitioner_id: practitionerId,
          location_id: locationId,
          from_day: day as '1',
          to_days: chosen as '1'[],
        });
        await onCopied();
      }}
      extra={
        <fieldset>
          <legend className="text-sm font-medium">Copy to</legend>
          <div className="mt-2 grid grid-cols-2 gap-1">
            {others.map((d) => (
              <label key={d.day} className="flex min-h-9 items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-5"
                  checked={chosen.includes(d.day)}
                  onChange={(e) => setChosen(e.target.checked ? [...chosen, d.day] : chosen.filter((x) => x !== d.day))}
                />
                {d.name}
              </label>
            ))}
          </div>
        </fieldset>
      }
    >
      <p>
        {dayName}&apos;s working hours and breaks replace those of the days ticked below; appointments already booked
        stay.
      </p>
    </ConfirmDialog>
  );
}

function Slots({
  practitionerId,
  locationId,
  types,
}: {
  practitionerId: number;
  locationId: number;
  types: { id: number; name: string }[];
}) {
  const [typeId, setTypeId] = useState<number | null>(types[0]?.id ?? null);
  const slots = useQuery({
    queryKey: ['practice', 'slots', practitionerId, locationId, typeId],
    queryFn: () =>
      portal.practice.hours.slots.query({
        practitioner_id: practitionerId,
        location_id: locationId,
        appointment_type_id: typeId!,
      }),
    enabled: typeId != null,
    retry: false,
  });
  const byDay = new Map<string, string[]>();
  for (const s of slots.data?.data ?? [])
    byDay.set(s.starts_at.slice(0, 10), [...(byDay.get(s.starts_at.slice(0, 10)) ?? []), s.starts_at.slice(11, 16)]);
  const dayLabel = (d: string) =>
    new Date(`${d}T12:00:00Z`).toLocaleDateString('en-GB', {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      timeZone: 'UTC',
    });
  return (
    <Card title="Free slots in the next 7 days">
      {types.length === 0 ? (
        <Empty>This practitioner offers no appointment types yet: choose some on Practitioners.</Empty>
      ) : (
        <div className="flex flex-col gap-4">
          <Field id="slots-type" label="Appointment type">
            <Select id="slots-type" value={typeId ?? ''} onChange={(e) => setTypeId(Number(e.target.value))}>
              {types.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </Select>
          </Field>
          {slots.isPending ? (
            <Loading what="free slots" />
          ) : slots.isError ? (
            <Alert tone="info">{portalError(slots.error).message}</Alert>
          ) : slots.data.data.length === 0 ? (
            <Empty>No free slots in the next 7 days.</Empty>
          ) : (
            <ul aria-label="Free slots by day" className="flex flex-col gap-2">
              {[...byDay].map(([day, times]) => (
                <li key={day} className="text-sm">
                  <strong>{dayLabel(day)}:</strong> {times.join(', ')}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Card>
  );
}

export function HoursGrid({ canManage }: { canManage: boolean }) {
  const queries = useQueryClient();
  const heading = useRef<HTMLHeadingElement>(null);
  const people = useQuery({
    queryKey: ['practice', 'practitioners'],
    queryFn: () => portal.practice.practitioners.list.query(),
  });
  const places = useQuery({
    queryKey: ['practice', 'locations'],
    queryFn: () => portal.practice.locations.list.query(),
  });
  const types = useQuery({
    queryKey: ['practice', 'appointment-types'],
    queryFn: () => portal.practice.appointmentTypes.list.query(),
  });
  // The practitioner and location chosen live in the address: a reload, Back or a shared link keeps them.
  const params = useSearchParams();
  const router = useRouter();
  const chosenPractitioner = Number(params.get('practitioner')) || null;
  const chosenLocation = Number(params.get('location')) || null;
  const choose = (next: { practitioner: number; location?: number }) => {
    const q = new URLSearchParams({ practitioner: String(next.practitioner) });
    if (next.location) q.set('location', String(next.location));
    router.replace(`?${q}`, { scroll: false });
  };
  const setPractitioner = (id: number) => choose({ practitioner: id });
  const setLocation = (id: number) => choose({ practitioner: practitioner!.id, location: id });
  const practitioner = people.data?.data.find((p) => p.id === chosenPractitioner) ?? people.data?.data[0];
  const theirLocations = (places.data?.data ?? []).filter((l) => practitioner?.location_ids.includes(l.id));
  const location = theirLocations.find((l) => l.id === chosenLocation) ?? theirLocations[0];
  // What is shown is what the address says, defaults included: the link to this page is the page.
  useEffect(() => {
    if (practitioner && location && (chosenPractitioner !== practitioner.id || chosenLocation !== location.id))
      choose({ practitioner: practitioner.id, location: location.id });
  }, [practitioner?.id, location?.id]);
  const hours = useQuery({
    queryKey: ['practice', 'hours', practitioner?.id, location?.id],
    queryFn: () => portal.practice.hours.list.query({ practitioner_id: practitioner!.id, location_id: location!.id }),
    enabled: Boolean(practitioner && location),
  });
  const refresh = () => queries.invalidateQueries({ queryKey: ['practice'] });

  const title = (
    <h1 ref={heading} tabIndex={-1} className="text-2xl font-semibold">
      Opening hours
    </h1>
  );
  if (people.isPending || places.isPending || types.isPending)
    return (
      <>
        {title}
        <Loading what="opening hours" />
      </>
    );
  if (people.isError)
    return (
      <>
        {title}
        <LoadFailed message={portalError(people.error).message} retry={() => void people.refetch()} />
      </>
    );
  if (!practitioner)
    return (
      <>
        {title}
        <Empty>No practitioners yet: add one on Practitioners, then set their hours here.</Empty>
      </>
    );
  const name = [practitioner.title, practitioner.first_name, practitioner.last_name].filter(Boolean).join(' ');
  const offered = (types.data?.data ?? []).filter((t) => practitioner.appointment_type_ids.includes(t.id) && t.active);
  const rowsOf = (day: string) => (hours.data?.data ?? []).filter((h) => h.day === day);

  return (
    <div className="flex flex-col gap-6">
      {title}
      <p className="text-sm text-slate-700">
        The hours repeat every week, in the clinic’s time zone. Breaks close time inside working hours.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="hours-practitioner" label="Practitioner">
          <Select
            id="hours-practitioner"
            value={practitioner.id}
            onChange={(e) => setPractitioner(Number(e.target.value))}
          >
            {people.data.data.map((p) => (
              <option key={p.id} value={p.id}>
                {[p.title, p.first_name, p.last_name].filter(Boolean).join(' ')}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="hours-location" label="Location">
          <Select
            id="hours-location"
            value={location?.id ?? ''}
            onChange={(e) => setLocation(Number(e.target.value))}
            disabled={!theirLocations.length}
          >
            {theirLocations.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      {!location ? (
        <Empty>
          {name} does not work at any location yet: choose where they work on{' '}
          <Link href="/developers/practice/practitioners" className="underline">
            Practitioners
          </Link>
          .
        </Empty>
      ) : (
        <>
          <Card title={`Weekly hours: ${name} at ${location.name}`}>
            {hours.isPending ? (
              <Loading what="hours" />
            ) : hours.isError ? (
              <LoadFailed message={portalError(hours.error).message} retry={() => void hours.refetch()} />
            ) : (
              <ul className="divide-y divide-slate-100">
                {DAYS.map(({ day, name: dayName }) => (
                  <li key={day} className="flex flex-col gap-2 py-3">
                    <h3 className="font-medium">{dayName}</h3>
                    {rowsOf(day).length === 0 ? (
                      <p className="text-sm text-slate-600">Closed</p>
                    ) : (
                      <ul aria-label={`${dayName} hours`} className="flex flex-wrap gap-2">
                        {rowsOf(day).map((h: Hours) => (
                          <li
                            key={h.id}
                            className="flex items-center gap-2 rounded-md border border-slate-200 px-2 py-1 text-sm"
                          >
                            <Badge tone={h.type === 'break' ? 'amber' : 'green'}>
                              {KINDS[h.type as keyof typeof KINDS] ?? h.type}
                            </Badge>
                            <span>
                              {h.starts_at}–{h.ends_at}
                            </span>
                            {canManage && (
                              <ConfirmDialog
                                trigger={
                                  <Button
                                    tone="secondary"
                                    className="min-h-8 px-2 py-0.5"
                                    aria-label={`Remove ${dayName} ${h.starts_at}–${h.ends_at}`}
                                  >
                                    Remove
                                  </Button>
                                }
                                focusAfter={() => heading.current}
                                title={`Remove ${dayName} ${h.starts_at}–${h.ends_at}?`}
                                confirm="Remove"
                                onConfirm={async () => {
                                  await portal.practice.hours.delete.mutate({ id: h.id });
                                  await refresh();
                                }}
                              >
                                <p>
                                  {h.type === 'break'
                                    ? 'The break is removed: that time becomes bookable again.'
                                    : `${name} no longer works ${h.starts_at}–${h.ends_at} on ${dayName}s: no new bookings then. Appointments already booked stay.`}
                                </p>
                              </ConfirmDialog>
                            )}
                          </li>
                        ))}
                      </ul>
                    )}
                    {canManage && rowsOf(day).length > 0 && (
                      <div>
                        <CopyDay
                          day={day}
                          dayName={dayName}
                          practitionerId={practitioner.id}
                          locationId={location.id}
                          focusAfter={() => heading.current}
                          onCopied={refresh}
                        />
                      </div>
                    )}
                    {canManage && (
                      <AddHours
                        day={day}
                        dayName={dayName}
                        practitionerId={practitioner.id}
                        locationId={location.id}
                        onAdded={() => void refresh()}
                      />
                    )}
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <Exceptions
            key={`x-${practitioner.id}-${location.id}`}
            practitionerId={practitioner.id}
            locationId={location.id}
            who={`${name} at ${location.name}`}
            canManage={canManage}
            heading={heading}
            refresh={refresh}
          />
          <Closures locations={places.data?.data ?? []} canManage={canManage} heading={heading} refresh={refresh} />
          <Slots
            key={`${practitioner.id}-${location.id}`}
            practitionerId={practitioner.id}
            locationId={location.id}
            types={offered}
          />
        </>
      )}
    </div>
  );
}
