import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, standardFields } from './fields';

export const locations = defineResource({
  name: 'locations',
  singular: 'location',
  description: 'Clinic sites. Read-only.',
  table: t.locations,
  fields: {
    id: f.id(),
    name: f.string({ filterable: true, sortable: true }),
    line_1: f.string({ nullable: true }),
    city: f.string({ nullable: true, filterable: true }),
    postal_code: f.string({ nullable: true, filterable: true }),
    country: f.string({ nullable: true, filterable: true, description: 'ISO 3166-1 alpha-2' }),
    phone: f.string({ nullable: true }),
    email: f.string({ nullable: true }),
    online_booking: f.boolean({ filterable: true, description: 'Whether patients can book this location online' }),
    ...standardFields(),
  },
});
