'use client';
/** The steps of "Set up your clinic" (server/domain/practice/checklist.ts), each ticked from the clinic's data. */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Card, LoadFailed, Loading } from '../../_components/ui';
import { portal, portalError } from '../../_lib/trpc';

type Step = 'locations' | 'practitioners' | 'hours' | 'appointment_types' | 'billable_items' | 'integration';

const STEPS: Record<Step, { title: string; why: string; href: string; link: string; done: (n: number) => string }> = {
  locations: {
    title: 'Add a location',
    why: 'Where appointments happen: every practitioner works at one or more.',
    href: '/developers/practice/locations',
    link: 'Locations',
    done: (n) => `${n} ${n === 1 ? 'location' : 'locations'}`,
  },
  practitioners: {
    title: 'Add practitioners',
    why: 'The people patients book, each at their locations.',
    href: '/developers/practice/practitioners',
    link: 'Practitioners',
    done: (n) => `${n} ${n === 1 ? 'practitioner' : 'practitioners'}`,
  },
  hours: {
    title: 'Set opening hours',
    why: 'When each practitioner works: availability offers slots only inside these hours.',
    href: '/developers/practice/hours',
    link: 'Opening hours',
    done: (n) => `${n} ${n === 1 ? 'row of hours' : 'rows of hours'}`,
  },
  appointment_types: {
    title: 'Add appointment types',
    why: 'What can be booked and for how long.',
    href: '/developers/practice/appointment-types',
    link: 'Appointment types',
    done: (n) => `${n} ${n === 1 ? 'appointment type' : 'appointment types'}`,
  },
  billable_items: {
    title: 'Add billable items',
    why: 'What invoices charge for, with prices.',
    href: '/developers/practice/billable-items',
    link: 'Billable items',
    done: (n) => `${n} ${n === 1 ? 'billable item' : 'billable items'}`,
  },
  integration: {
    title: 'Connect your software',
    why: 'An API key for the software that calls the API, or a webhook endpoint for one that listens.',
    href: '/developers/keys',
    link: 'API keys',
    done: (n) => `${n} ${n === 1 ? 'key or endpoint' : 'keys and endpoints'}`,
  },
};

export function SetupChecklist({ canManage }: { canManage: boolean }) {
  const list = useQuery({ queryKey: ['practice', 'checklist'], queryFn: () => portal.practice.checklist.get.query() });
  if (list.isPending) return <Loading what="the set-up steps" />;
  if (list.isError) return <LoadFailed message={portalError(list.error).message} retry={() => void list.refetch()} />;
  const steps = list.data.data;
  const left = steps.filter((s) => !s.done).length;
  return (
    <Card title={left === 0 ? 'Your clinic is set up' : `${steps.length - left} of ${steps.length} steps done`}>
      <p className="mb-3 text-sm text-slate-600">
        {left === 0
          ? 'Every step has what it needs. The pages stay in the menu for changes.'
          : 'Each step is ticked once the clinic has what it asks for. First check the name, time zone and currency on '}
        {left > 0 && (
          <>
            <Link className="text-indigo-700 underline" href="/developers/practice/clinic">
              Clinic profile
            </Link>
            .
          </>
        )}
        {!canManage && ' You can see the setup; changing it needs the “Manage practice setup” permission.'}
      </p>
      <ol aria-label="Set-up steps" className="flex flex-col gap-3">
        {steps.map((s, i) => {
          const step = STEPS[s.step as Step];
          return (
            <li key={s.step} className="flex items-start gap-3">
              <span
                aria-hidden="true"
                className={`mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${s.done ? 'bg-emerald-600 text-white' : 'border border-slate-400 text-slate-700'}`}
              >
                {s.done ? '✓' : i + 1}
              </span>
              <div className="text-sm">
                <p className="font-medium">
                  {step.title}{' '}
                  <span className={s.done ? 'text-emerald-800' : 'text-slate-600'}>
                    ({s.done ? `done: ${step.done(s.count)}` : 'not yet'})
                  </span>
                </p>
                <p className="text-slate-600">
                  {step.why}{' '}
                  <Link className="text-indigo-700 underline" href={step.href}>
                    {step.link}
                  </Link>
                  {s.step === 'integration' && (
                    <>
                      {' · '}
                      <Link className="text-indigo-700 underline" href="/developers/webhooks">
                        Webhooks
                      </Link>
                    </>
                  )}
                </p>
              </div>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
