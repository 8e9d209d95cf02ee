'use client';
/**
 * One rule for times in the portal: how long ago, in words ("3 min ago"), with the full time in the
 * clinic's zone, named ("26 Nov 2026, 20:31:05 Europe/London"), on hover and on keyboard focus, and in
 * the accessible text. The clinic's zone, not the browser's: a member abroad and the clinic's own
 * records (and the REST API's UTC strings, converted) then agree on what "20:31" means.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { portal } from '../_lib/trpc';

/** The clinic's IANA zone from session.me (shared by every Time on the page: one call); UTC until it is known. */
export function useClinicZone(): string {
  const me = useQuery({ queryKey: ['session.me'], queryFn: () => portal.session.me.query(), staleTime: Infinity });
  return me.data?.account.timezone ?? 'UTC';
}

/** "26 Nov 2026, 20:31:05 Europe/London" (server/domain/activity.ts clinicTime writes the same, for CSV and sentences). */
export function fullTime(iso: string, zone: string): string {
  const f = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return `${f.format(new Date(iso))} ${zone}`;
}

/** "14:05" in the clinic's zone (with the day when it is not today there), for a time inside a short phrase. */
export function useClockTime(): (iso: string) => string {
  const zone = useClinicZone();
  return (iso) => {
    const day = (d: Date) =>
      new Intl.DateTimeFormat('en-GB', { timeZone: zone, day: 'numeric', month: 'short' }).format(d);
    const at = new Date(iso);
    const time = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(at);
    return day(at) === day(new Date()) ? time : `${day(at)}, ${time}`;
  };
}

/** For a deadline inside a sentence ("keeps working until …"): the exact time in the clinic's zone, named, since "in 24 hr" would not say when to act by. */
export function useFullTime(): (iso: string | null) => string {
  const zone = useClinicZone();
  return (iso) => (iso ? fullTime(iso, zone) : '—');
}

const relative = new Intl.RelativeTimeFormat('en-GB', { numeric: 'always', style: 'short' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Infinity],
];

/** "just now", "in a few seconds", "3 min ago", "in 2 hr", "5 days ago". */
export function ago(iso: string, now: number): string {
  let n = (Date.parse(iso) - now) / 1000;
  // A retry 15 s ahead is not "just now": that reads as done.
  if (Math.abs(n) < 45) return n > 1 ? 'in a few seconds' : 'just now';
  for (const [unit, size] of STEPS) {
    if (Math.abs(n) < size) return relative.format(Math.round(n), unit);
    n /= size;
  }
  return relative.format(Math.round(n), 'year');
}

/** The clock, moving on each minute, so "3 min ago" does not go stale on an open page. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** A moment: relative in words, the full time in the clinic's zone on hover (title) and focus (shown below it). */
export function Time({ iso }: { iso: string | null }) {
  const zone = useClinicZone();
  const now = useNow();
  if (!iso) return <span>—</span>;
  const full = fullTime(iso, zone);
  return (
    // Focusable, so a keyboard reaches the full time as a mouse does; relative for a glance, the full time read out as well.
    <time
      dateTime={iso}
      title={full}
      tabIndex={0}
      className="group relative cursor-help whitespace-nowrap underline decoration-dotted underline-offset-2 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
    >
      {ago(iso, now)}
      <span className="sr-only">, {full}</span>
      {/* Not rendered until wanted (hidden, not invisible): a laid-out tooltip would widen a phone's page. */}
      <span
        aria-hidden="true"
        className="absolute left-0 top-full z-10 mt-1 hidden w-max max-w-[16rem] rounded bg-slate-900 px-2 py-1 text-xs text-white group-hover:block group-focus:block"
      >
        {full}
      </span>
    </time>
  );
}
