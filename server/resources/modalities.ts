import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, standardFields } from './fields';
import { colourInput, nameInput } from './staff-inputs';

export const modalities = defineResource({
  name: 'modalities',
  singular: 'modality',
  permission: 'practice',
  description: 'Treatment modalities (used by care plan phases). Read-only.',
  table: t.modalities,
  fields: {
    id: f.id(),
    name: f.string({ filterable: true, sortable: true, staff: 'required', input: nameInput() }),
    color: f.string({ nullable: true, staff: 'optional', input: colourInput }),
    ...standardFields(),
  },
});
