import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, standardFields } from './fields';

export const tags = defineResource({
  name: 'tags',
  singular: 'tag',
  description: 'Patient tags. Read-only; placed on patients through patient_tags.',
  table: t.tags,
  fields: {
    id: f.id(),
    name: f.string({ filterable: true, sortable: true }),
    color: f.string({ nullable: true, filterable: true }),
    sort_order: f.integer({ filterable: true, sortable: true }),
    ...standardFields(),
  },
});
