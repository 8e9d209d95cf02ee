'use client';
/** Treatment modalities: what a care plan phase's visits are for, with a colour to tell them apart. */
import { portal } from '../../../_lib/trpc';
import { ColouredName } from '../_components/coloured-name';
import { SetupManager, toInput, type FieldSpec } from '../_components/setup-manager';

type Modality = Awaited<ReturnType<typeof portal.practice.modalities.list.query>>['data'][number];

const FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true, hint: 'e.g. Dry needling' },
  { name: 'color', label: 'Colour', kind: 'color', hint: 'A hex colour such as #3366cc' },
];

export function ModalitiesManager({ canManage }: { canManage: boolean }) {
  return (
    <SetupManager<Modality>
      noun="modality"
      title="Modalities"
      queryKey="modalities"
      list={() => portal.practice.modalities.list.query()}
      fields={FIELDS}
      nameOf={(m) => m.name}
      columns={[
        { label: 'Name', render: (m) => <ColouredName color={m.color} name={m.name} /> },
        { label: 'Colour', render: (m) => m.color ?? '—' },
      ]}
      create={(v) =>
        portal.practice.modalities.create.mutate(
          toInput(FIELDS, v) as Parameters<typeof portal.practice.modalities.create.mutate>[0],
        )
      }
      update={(id, v) => portal.practice.modalities.update.mutate({ id, ...toInput(FIELDS, v) })}
      remove={(id) => portal.practice.modalities.delete.mutate({ id })}
      deleteNote="The modality is removed for good. One that care plans still plan visits with is kept: you will be told which to change first."
      canManage={canManage}
      empty="No modalities yet. Add one above: care plans then plan visits with it."
    />
  );
}
