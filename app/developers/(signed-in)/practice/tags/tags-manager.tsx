'use client';
/** Patient tags (Runner, Needs an interpreter …): their names, colours and order; placed on patients elsewhere. */
import { portal } from '../../../_lib/trpc';
import { ColouredName } from '../_components/coloured-name';
import { SetupManager, toInput, type FieldSpec } from '../_components/setup-manager';

type Tag = Awaited<ReturnType<typeof portal.practice.tags.list.query>>['data'][number];

const FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true, hint: 'e.g. Runner' },
  { name: 'color', label: 'Colour', kind: 'color', hint: 'A hex colour such as #3366cc' },
  {
    name: 'sort_order',
    label: 'Position in the list',
    kind: 'number',
    hint: 'Lower comes first; leave empty to put it last',
  },
];

/** An empty position is left out: a new tag goes last, an edited one keeps its place. */
const input = (v: Parameters<typeof toInput>[1]) => {
  const { sort_order, ...rest } = toInput(FIELDS, v);
  return sort_order === null ? rest : { ...rest, sort_order };
};

export function TagsManager({ canManage }: { canManage: boolean }) {
  return (
    <SetupManager<Tag>
      noun="tag"
      title="Patient tags"
      queryKey="tags"
      list={() => portal.practice.tags.list.query()}
      fields={FIELDS}
      nameOf={(t) => t.name}
      columns={[
        { label: 'Name', render: (t) => <ColouredName color={t.color} name={t.name} /> },
        { label: 'Position', render: (t) => t.sort_order },
      ]}
      create={(v) =>
        portal.practice.tags.create.mutate(input(v) as Parameters<typeof portal.practice.tags.create.mutate>[0])
      }
      update={(id, v) => portal.practice.tags.update.mutate({ id, ...input(v) })}
      remove={(id) => portal.practice.tags.delete.mutate({ id })}
      deleteNote="The tag is removed for good. A tag still on patients, placed by a care plan or on timeline entries is kept: you will be told where it is used (rename it instead, or take it off those patients first)."
      canManage={canManage}
      empty="No patient tags yet. Add one above."
    />
  );
}
