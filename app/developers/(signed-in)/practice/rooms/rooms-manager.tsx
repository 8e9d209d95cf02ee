'use client';
/** Rooms and equipment (the API's `resources`): what an appointment can occupy at each location. */
import { useQuery } from '@tanstack/react-query';
import { Badge, Loading } from '../../../_components/ui';
import { portal } from '../../../_lib/trpc';
import { ColouredName } from '../_components/coloured-name';
import { SetupManager, toInput, type FieldSpec } from '../_components/setup-manager';

type Room = Awaited<ReturnType<typeof portal.practice.rooms.list.query>>['data'][number];

/** Every status the declaration allows, in words (a new one fails to compile here until it has its words). */
const STATUSES: Record<Room['status'], string> = {
  active: 'Active (bookable)',
  inactive: 'Inactive (out of use for now)',
  archived: 'Archived (retired)',
};

const fieldsFor = (sites: { id: number; name: string }[]): FieldSpec[] => [
  {
    name: 'name',
    label: 'Name',
    kind: 'text',
    required: true,
    hint: 'As staff know it, e.g. Room 2 or Shockwave unit',
  },
  {
    name: 'location_id',
    label: 'Location',
    kind: 'select',
    required: true,
    numeric: true,
    values: sites.map((s) => ({ value: String(s.id), label: s.name })),
    hint: sites.length ? undefined : 'Add a location first',
  },
  { name: 'public_name', label: 'Name patients see', kind: 'text', hint: 'Leave empty to use the name' },
  { name: 'description', label: 'Description', kind: 'text' },
  { name: 'color', label: 'Calendar colour', kind: 'color', hint: 'A hex colour such as #3366cc' },
  { name: 'sort_order', label: 'Position in the list', kind: 'number', hint: 'Lower comes first' },
  {
    name: 'status',
    label: 'Status',
    kind: 'select',
    required: true,
    values: Object.entries(STATUSES).map(([value, label]) => ({ value, label })),
  },
  {
    name: 'locked',
    label: 'Locked',
    kind: 'checkbox',
    hint: 'A marker for staff: leave this room as it is (e.g. shared with the building). Bookings and changes are still allowed.',
  },
];

export function RoomsManager({ canManage }: { canManage: boolean }) {
  const locations = useQuery({
    queryKey: ['practice', 'locations'],
    queryFn: () => portal.practice.locations.list.query(),
  });
  const sites = locations.data?.data ?? [];
  const fields = fieldsFor(sites);
  const where = (id: number) => sites.find((s) => s.id === id)?.name ?? '—';
  /** An empty position is left out: a new one goes first (0), an edited one keeps its place. */
  const input = (v: Parameters<typeof toInput>[1]) => {
    const { sort_order, ...rest } = toInput(fields, v);
    return sort_order === null ? rest : { ...rest, sort_order };
  };
  // The form starts on the first location: it waits for them, so what is shown is what is sent.
  if (locations.isPending) return <Loading what="locations" />;
  return (
    <SetupManager<Room>
      noun="room or piece of equipment"
      title="Rooms and equipment"
      queryKey="rooms"
      list={() => portal.practice.rooms.list.query()}
      fields={fields}
      nameOf={(r) => r.name}
      columns={[
        {
          label: 'Name',
          render: (r) => (
            <ColouredName color={r.color} name={r.name}>
              {r.public_name && <span className="text-slate-600">({r.public_name})</span>}
            </ColouredName>
          ),
        },
        { label: 'Location', render: (r) => where(r.location_id) },
        { label: 'Position', render: (r) => r.sort_order },
        {
          label: 'Status',
          render: (r) => (
            <span className="flex flex-wrap gap-1">
              {r.status === 'active' ? (
                <Badge tone="green">Active</Badge>
              ) : r.status === 'inactive' ? (
                <Badge tone="amber">Inactive</Badge>
              ) : (
                <Badge tone="slate">Archived</Badge>
              )}
              {r.locked && <Badge tone="slate">Locked</Badge>}
            </span>
          ),
        },
      ]}
      create={(v) =>
        portal.practice.rooms.create.mutate(input(v) as Parameters<typeof portal.practice.rooms.create.mutate>[0])
      }
      update={(id, v) => portal.practice.rooms.update.mutate({ id, ...input(v) })}
      remove={(id) => portal.practice.rooms.delete.mutate({ id })}
      deleteNote="It is removed for good. One that appointments or opening hours use is kept for their record: archive it instead (status Archived), so it can no longer be booked."
      canManage={canManage}
      empty="No rooms or equipment yet. Add one above if appointments need a room, table or machine."
    />
  );
}
