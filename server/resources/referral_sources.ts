import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, standardFields } from './fields';

export const referralSources = defineResource({
  name: 'referral_sources',
  description: 'Where patients come from (a GP practice, a campaign...). Referenced by patients.referral_source_id.',
  table: t.referralSources,
  fields: {
    id: f.id(),
    name: f.string({ filterable: true, sortable: true }),
    category: f.string({ nullable: true, filterable: true }),
    active: f.boolean({ filterable: true }),
    ...standardFields(),
  },
});
