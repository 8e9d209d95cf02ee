import * as t from '../../db/schema';
import { defineResource } from './define';
import { f } from './fields';

export const deletedEntities = defineResource({
  name: 'deleted_entities',
  singular: 'deleted entity',
  permission: 'feed',
  description:
    'Deletions and voids, for clients that poll: entity (resource name), entity_id and deleted_at. Read-only.',
  table: t.deletedEntities,
  fields: {
    id: f.id(),
    entity: f.string({ filterable: true, sortable: true, description: 'Resource name, e.g. patients' }),
    entity_id: f.ref({ filterable: true }),
    deleted_at: f.timestamp({ filterable: true, sortable: true }),
  },
});
