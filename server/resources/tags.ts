import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, standardFields } from './fields';
import { colourInput, nameInput, sortOrderInput } from './staff-inputs';

export const tags = defineResource({
  name: 'tags',
  singular: 'tag',
  permission: 'practice',
  description: 'Patient tags. Read-only; placed on patients through patient_tags.',
  table: t.tags,
  fields: {
    id: f.id(),
    name: f.string({ filterable: true, sortable: true, staff: 'required', input: nameInput() }),
    color: f.string({ nullable: true, filterable: true, staff: 'optional', input: colourInput }),
    sort_order: f.integer({ filterable: true, sortable: true, staff: 'optional', input: sortOrderInput }),
    ...standardFields(),
  },
});
