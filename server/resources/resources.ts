import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, standardFields } from './fields';

export const resources = defineResource({
  name: 'resources',
  singular: 'resource',
  description: 'Calendar resources: rooms, tables, benches. Read-only.',
  table: t.resources,
  fields: {
    id: f.id(),
    location_id: f.ref({ filterable: true, sortable: true }),
    name: f.string({ filterable: true, sortable: true }),
    public_name: f.string({ nullable: true, filterable: true }),
    description: f.string({ nullable: true }),
    color: f.string({ nullable: true }),
    sort_order: f.integer({ filterable: true, sortable: true }),
    status: f.enum(['active', 'inactive', 'archived'], {
      filterable: true,
      description: 'active: bookable; inactive: temporarily out of use; archived: retired',
    }),
    locked: f.boolean({ filterable: true }),
    ...standardFields(),
  },
});
