'use client';
/** Kinds of appointment: length, colour on the calendar, group places, and how they may be booked. */
import { Badge } from '../../../_components/ui';
import { portal } from '../../../_lib/trpc';
import { ColouredName } from '../_components/coloured-name';
import { SetupManager, toInput, type FieldSpec } from '../_components/setup-manager';

type AppointmentType = Awaited<ReturnType<typeof portal.practice.appointmentTypes.list.query>>['data'][number];

const FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true, hint: 'e.g. Initial assessment' },
  { name: 'duration_minutes', label: 'Length in minutes', kind: 'number', required: true },
  { name: 'color', label: 'Calendar colour', kind: 'color', hint: 'A hex colour such as #3366cc' },
  {
    name: 'max_attendees',
    label: 'Places (group classes)',
    kind: 'number',
    hint: 'Leave empty for one patient at a time',
  },
  { name: 'category', label: 'Category', kind: 'text' },
  { name: 'description', label: 'Description', kind: 'text' },
  { name: 'online_booking', label: 'Patients can book it online', kind: 'checkbox' },
  { name: 'requires_resource', label: 'Needs a room or resource', kind: 'checkbox' },
  {
    name: 'active',
    label: 'Active (can be booked)',
    kind: 'checkbox',
    hint: 'Untick to stop new bookings; past appointments keep their type',
    checked: true,
  },
];

export function AppointmentTypesManager({ canManage }: { canManage: boolean }) {
  return (
    <SetupManager<AppointmentType>
      noun="appointment type"
      title="Appointment types"
      queryKey="appointment-types"
      list={() => portal.practice.appointmentTypes.list.query()}
      fields={FIELDS}
      nameOf={(t) => t.name}
      columns={[
        {
          label: 'Name',
          render: (t) => <ColouredName color={t.color} name={t.name} />,
        },
        { label: 'Length', render: (t) => `${t.duration_minutes} min` },
        { label: 'Places', render: (t) => (t.max_attendees ? `Group of ${t.max_attendees}` : 'One-to-one') },
        {
          label: 'Booking',
          render: (t) => (
            <span className="flex flex-wrap gap-1">
              {t.active ? <Badge tone="green">Active</Badge> : <Badge tone="slate">Inactive</Badge>}
              {t.online_booking && <Badge tone="green">Online</Badge>}
              {t.requires_resource && <Badge tone="amber">Needs a room</Badge>}
            </span>
          ),
        },
      ]}
      create={(v) =>
        portal.practice.appointmentTypes.create.mutate(
          toInput(FIELDS, v) as Parameters<typeof portal.practice.appointmentTypes.create.mutate>[0],
        )
      }
      update={(id, v) => portal.practice.appointmentTypes.update.mutate({ id, ...toInput(FIELDS, v) })}
      remove={(id) => portal.practice.appointmentTypes.delete.mutate({ id })}
      deleteNote="The type is removed for good. A type that appointments use is kept (make it inactive instead), and so is one practitioners still offer."
      canManage={canManage}
      empty="No appointment types yet. Add one above: practitioners then offer it."
    />
  );
}
