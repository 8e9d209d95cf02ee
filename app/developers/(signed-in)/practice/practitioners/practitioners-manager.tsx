'use client';
/** Clinicians: where they work, what they offer, whether they take bookings. Linked team members are shown (linked on the Team page). */
import { useQuery } from '@tanstack/react-query';
import { Badge, Loading } from '../../../_components/ui';
import { portal } from '../../../_lib/trpc';
import { SetupManager, toInput, type FieldSpec } from '../_components/setup-manager';

type Practitioner = Awaited<ReturnType<typeof portal.practice.practitioners.list.query>>['data'][number];

export function PractitionersManager({ canManage }: { canManage: boolean }) {
  const places = useQuery({
    queryKey: ['practice', 'locations'],
    queryFn: () => portal.practice.locations.list.query(),
  });
  const types = useQuery({
    queryKey: ['practice', 'appointment-types'],
    queryFn: () => portal.practice.appointmentTypes.list.query(),
  });
  if (places.isPending || types.isPending) return <Loading what="practitioners" />;
  const locationName = new Map((places.data?.data ?? []).map((l) => [l.id, l.name]));
  const typeName = new Map((types.data?.data ?? []).map((t) => [t.id, t.name]));
  const fields: FieldSpec[] = [
    { name: 'title', label: 'Title', kind: 'text', hint: 'e.g. Dr' },
    { name: 'first_name', label: 'First name', kind: 'text', required: true },
    { name: 'last_name', label: 'Last name', kind: 'text', required: true },
    { name: 'designation', label: 'Role', kind: 'text', hint: 'e.g. Physiotherapist' },
    { name: 'email', label: 'Email', kind: 'email' },
    {
      name: 'location_ids',
      label: 'Works at',
      kind: 'choices',
      options: [...locationName].map(([value, label]) => ({ value, label })),
      // The one location of a one-site clinic is where a new practitioner works; without a location a
      // practitioner can have no hours and no bookings (review point 9).
      ...(locationName.size === 1 ? { preset: [...locationName.keys()] } : {}),
      hint: 'Add a location first.',
      note: 'Without a location they can have no opening hours and no bookings.',
    },
    {
      name: 'appointment_type_ids',
      label: 'Offers',
      kind: 'choices',
      options: [...typeName].map(([value, label]) => ({ value, label })),
      hint: 'Add an appointment type first.',
    },
    {
      name: 'active',
      label: 'Active (takes bookings)',
      kind: 'checkbox',
      hint: 'Untick when they leave: their diary stays',
      checked: true,
    },
    { name: 'online_booking', label: 'Patients can book them online', kind: 'checkbox' },
  ];
  const named = (ids: number[], names: Map<number, string>) =>
    ids.map((id) => names.get(id) ?? `#${id}`).join(', ') || '—';
  return (
    <SetupManager<Practitioner>
      noun="practitioner"
      title="Practitioners"
      queryKey="practitioners"
      list={() => portal.practice.practitioners.list.query()}
      fields={fields}
      nameOf={(p) => [p.title, p.first_name, p.last_name].filter(Boolean).join(' ')}
      columns={[
        {
          label: 'Name',
          render: (p) => <strong>{[p.title, p.first_name, p.last_name].filter(Boolean).join(' ')}</strong>,
        },
        { label: 'Works at', render: (p) => named(p.location_ids, locationName) },
        { label: 'Offers', render: (p) => named(p.appointment_type_ids, typeName) },
        { label: 'Team member', render: (p) => p.members.map((m) => m.name).join(', ') || '—' },
        {
          label: 'Status',
          render: (p) => (
            <span className="flex flex-wrap gap-1">
              {p.active ? <Badge tone="green">Active</Badge> : <Badge tone="slate">Inactive</Badge>}
              {p.online_booking && <Badge tone="green">Online</Badge>}
            </span>
          ),
        },
      ]}
      create={(v) =>
        portal.practice.practitioners.create.mutate(
          toInput(fields, v) as Parameters<typeof portal.practice.practitioners.create.mutate>[0],
        )
      }
      update={(id, v) => portal.practice.practitioners.update.mutate({ id, ...toInput(fields, v) })}
      remove={(id) => portal.practice.practitioners.delete.mutate({ id })}
      deleteNote="The practitioner and their weekly hours are removed for good. One with appointments, or linked to a team member, is kept: make them inactive instead."
      canManage={canManage}
      empty="No practitioners yet. Add one above, then set their hours on Opening hours."
    />
  );
}
