'use client';
/** The clinic's sites: name, address and contact, and whether patients may book there online. */
import { Badge } from '../../../_components/ui';
import { portal } from '../../../_lib/trpc';
import { SetupManager, toInput, type FieldSpec } from '../_components/setup-manager';

type Location = Awaited<ReturnType<typeof portal.practice.locations.list.query>>['data'][number];

const FIELDS: FieldSpec[] = [
  {
    name: 'name',
    label: 'Name',
    kind: 'text',
    required: true,
    hint: 'As patients and staff know it, e.g. Harbour Street',
  },
  { name: 'line_1', label: 'Address', kind: 'text' },
  { name: 'city', label: 'Town or city', kind: 'text' },
  { name: 'postal_code', label: 'Postcode', kind: 'text' },
  { name: 'country', label: 'Country code', kind: 'text', hint: 'Two letters: GB, IE, US …' },
  { name: 'phone', label: 'Phone', kind: 'text' },
  { name: 'email', label: 'Email', kind: 'email' },
  { name: 'online_booking', label: 'Patients can book here online', kind: 'checkbox' },
];

export function LocationsManager({ canManage }: { canManage: boolean }) {
  return (
    <SetupManager<Location>
      noun="location"
      title="Locations"
      queryKey="locations"
      list={() => portal.practice.locations.list.query()}
      fields={FIELDS}
      nameOf={(l) => l.name}
      columns={[
        { label: 'Name', render: (l) => <strong>{l.name}</strong> },
        {
          label: 'Address',
          render: (l) => [l.line_1, l.city, l.postal_code, l.country].filter(Boolean).join(', ') || '—',
        },
        { label: 'Contact', render: (l) => [l.phone, l.email].filter(Boolean).join(' · ') || '—' },
        {
          label: 'Online booking',
          render: (l) => (l.online_booking ? <Badge tone="green">On</Badge> : <Badge tone="slate">Off</Badge>),
        },
      ]}
      create={(v) =>
        portal.practice.locations.create.mutate(
          toInput(FIELDS, v) as Parameters<typeof portal.practice.locations.create.mutate>[0],
        )
      }
      update={(id, v) => portal.practice.locations.update.mutate({ id, ...toInput(FIELDS, v) })}
      remove={(id) => portal.practice.locations.delete.mutate({ id })}
      deleteNote="The location is removed for good. A location that appointments, invoices, opening hours, practitioners or rooms still use is kept: you will be told what uses it (switch off online booking to stop new bookings there)."
      canManage={canManage}
      empty="No locations yet. Add the clinic's first site above."
    />
  );
}
